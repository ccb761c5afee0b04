import type { EvalCase, GoldenExpectations, ToolRequirement } from '../config/types.js'
import type { MetricSet, MetricsReport, RunResult } from '../results/types.js'
import type { GoldenAssertions } from '../results/types.js'
import { round4 } from '../util/text.js'
import { scriptedTurns, turnCalls } from './turns.js'
import { isToolError } from '../scoring/tool-errors.js'

/**
 * Tool-use metrics over a set of runs. Each is a share in 0–1, or null when no run it applies
 * to exists ("missing", never a misleading 0):
 * - tool_selection_accuracy: positive golden cases (expect_tool set) whose first call was right;
 * - over_trigger_rate: negative cases (expect_tool: null) that called a tool anyway;
 * - argument_correctness: correct selections with expect_args whose arguments matched;
 * - sequence_correctness: cases with expect_sequence that followed it;
 * - task_completion: judged runs the judge passed;
 * - schema_invalid_call_rate / tool_error_rate: over calls (tool_error_rate leaves out the calls a Layer 2 fault answered);
 * - tool_set precision, recall and F1: called tool names against the expected ones
 *   (required_tools, expect_tool, expect_sequence), averaged over runs that expect tools.
 * A multi-turn run counts per turn: each turn with golden keys (or required_tools) is one more
 * case for the tool-use metrics, over that turn's calls, and each judged turn one more verdict for
 * task_completion; the case's own keys count once over all the run's calls, as for any run.
 */
export function computeMetrics(runs: RunResult[], cases: EvalCase[]): MetricsReport {
  const byCase = new Map(cases.map((c) => [c.id, c]))
  const set = (subset: RunResult[]) => metricSet(subset, byCase)
  const split = (key: (r: RunResult) => string[]) => {
    const groups = new Map<string, RunResult[]>()
    for (const run of runs) for (const k of key(run)) groups.set(k, [...(groups.get(k) ?? []), run])
    return Object.fromEntries([...groups].map(([k, list]) => [k, set(list)]))
  }
  return {
    overall: set(runs),
    by_model: split((r) => [r.model]),
    by_prompt: split((r) => [r.prompt_name]),
    by_tag: split((r) => r.tags)
  }
}

/**
 * What the golden-set metrics count once: a run's calls against its case's keys, and, for a
 * multi-turn run, each turn's calls against that turn's keys.
 */
interface ToolUseUnit {
  golden: GoldenExpectations | null
  required: ToolRequirement[]
  /** The names called, in order. */
  called: string[]
  assertions: GoldenAssertions | null
}

/** A run's units: the case's keys over every call, then each turn's keys over that turn's calls. */
function toolUseUnits(run: RunResult, evalCase: EvalCase | undefined): ToolUseUnit[] {
  const units: ToolUseUnit[] = [{ golden: evalCase?.golden ?? null, required: evalCase?.required_tools ?? [], called: run.tool_calls.map((c) => c.name), assertions: run.golden_assertions }]
  const scripted = scriptedTurns(evalCase)
  for (const turn of run.dialogue?.turns ?? []) {
    const script = scripted[turn.index - 1]
    if (!script) continue
    const called = turnCalls(run, turn).map((c) => c.name)
    units.push({ golden: script.golden, required: script.required_tools, called, assertions: turn.golden_assertions })
  }
  return units
}

/** The judge verdicts a run counts in task_completion: its own rubric's, and each judged turn's. */
function judgedVerdicts(run: RunResult): boolean[] {
  const verdicts = run.judge?.score !== null && run.judge?.score !== undefined ? [run.rubric_passed] : []
  for (const turn of run.dialogue?.turns ?? []) if (turn.judge?.score !== null && turn.judge?.score !== undefined) verdicts.push(turn.judge.score >= turn.judge.threshold)
  return verdicts
}

function metricSet(runs: RunResult[], byCase: Map<string, EvalCase>): MetricSet {
  const selection: boolean[] = []
  const overTrigger: boolean[] = []
  const args: boolean[] = []
  const sequence: boolean[] = []
  const completion: boolean[] = []
  const precision: number[] = []
  const recall: number[] = []
  const f1: number[] = []
  let calls = 0
  let checkedCalls = 0
  let invalidCalls = 0
  let errorCalls = 0
  for (const run of runs) {
    // A run that errored, was cancelled or never started (skipped: the budget) chose nothing.
    if (run.status !== 'error' && run.status !== 'cancelled' && run.status !== 'skipped') {
      for (const { golden, required, called, assertions } of toolUseUnits(run, byCase.get(run.case_id))) {
        const check = (name: string) => assertions?.checks.find((c) => c.check === name)
        if (golden?.expect_tool === null) overTrigger.push(called.length > 0)
        else if (golden?.expect_tool) {
          const selected = called[0] === golden.expect_tool
          selection.push(selected)
          const argCheck = check('expect_args')
          if (selected && argCheck) args.push(argCheck.passed)
        }
        const sequenceCheck = check('expect_sequence')
        if (sequenceCheck) sequence.push(sequenceCheck.passed)
        const expected = new Set([...required.map((t) => t.name), ...(golden?.expect_tool ? [golden.expect_tool] : []), ...(golden?.expect_sequence ?? [])])
        if (expected.size > 0) {
          const actual = new Set(called)
          const hits = [...actual].filter((n) => expected.has(n)).length
          const p = actual.size === 0 ? 0 : hits / actual.size
          const r = hits / expected.size
          precision.push(p)
          recall.push(r)
          f1.push(p + r === 0 ? 0 : (2 * p * r) / (p + r))
        }
      }
    }
    completion.push(...judgedVerdicts(run))
    // An error we injected (Layer 2) is not the server's: it stays out of the tool error rate.
    const served = run.tool_calls.filter((c) => !c.fault)
    calls += served.length
    errorCalls += served.filter(isToolError).length
    checkedCalls += run.tool_calls.filter((c) => c.schema_valid !== null).length
    invalidCalls += run.tool_calls.filter((c) => c.schema_valid === false).length
  }
  return {
    runs: runs.length,
    tool_selection_accuracy: share(selection),
    over_trigger_rate: share(overTrigger),
    argument_correctness: share(args),
    sequence_correctness: share(sequence),
    task_completion: share(completion),
    schema_invalid_call_rate: ratio(invalidCalls, checkedCalls),
    tool_error_rate: ratio(errorCalls, calls),
    tool_set_precision: mean(precision),
    tool_set_recall: mean(recall),
    tool_set_f1: mean(f1)
  }
}

const share = (xs: boolean[]) => (xs.length ? round4(xs.filter(Boolean).length / xs.length) : null)
const ratio = (n: number, d: number) => (d ? round4(n / d) : null)
const mean = (xs: number[]) => (xs.length ? round4(xs.reduce((a, b) => a + b, 0) / xs.length) : null)
