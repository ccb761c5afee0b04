import { Ajv2020 } from 'ajv/dist/2020.js'
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { parseEvalsV1Suite } from '../src/config/evals-v1-suite.js'
import { fixturePath } from './harness.js'
import { assembleDocument } from '../src/aggregate/document.js'
import { NO_BUDGETS, type Budgets } from '../src/config/types.js'
import type { EvalsV1Section, GoldenCheck, ResultsDocument, RunResult, TurnResult } from '../src/results/types.js'
import { golden } from './report-shapes.js'

/**
 * Hand-built pieces of an evals/v1 suite's results document: its `evals_v1` section, runs built
 * from the golden document's first run (passed: two LLM calls, one tool call, a judge at 0.87),
 * turns, and the document assembled from them by the real assembly code.
 */

export function evalsV1Section(over: Partial<EvalsV1Section> = {}): EvalsV1Section {
  return {
    api_version: 'mcp-use.com/evals/v1',
    name: 'smoke',
    intent: 'The weather tools answer for a city.',
    triggers: null,
    flows: [{ id: 'main', checks: ['fetch-weather-paris'], scenarios: ['weather-paris', 'convert'] }],
    clients: [
      { flow: 'main', target: 'mcp-use', models: ['openai/gpt-4o-mini'], disallowed_tools: [], run_on: null, run: true, reason: null },
      { flow: 'main', target: 'chatgpt', models: ['gpt-4o'], disallowed_tools: [], run_on: null, run: false, reason: 'a hosted client: it runs only in its own service' }
    ],
    context: 'ci',
    gates: { toolErrorRateMax: null, agentStepsP95Max: null, tokensPerSuccessP95Max: null },
    fail_on: [],
    parallel_cases: null,
    not_run: [{ what: 'client', where: 'flows[0].clients[1]', reason: 'a hosted client: it runs only in its own service' }],
    ...over
  }
}

/** The golden document's first run (passed), changed by `over`. */
export function evalsRun(over: Partial<RunResult> = {}): RunResult {
  const base = golden().runs[0]!
  return { ...base, ...over }
}

/** A failed run: its success false, and its status failed unless `over` says otherwise. */
export const failedEvalsRun = (over: Partial<RunResult> = {}): RunResult => evalsRun({ success: false, status: 'failed', ...over })

export const goldenCheck = (check: GoldenCheck['check'], passed: boolean, reason = `${check} ${passed ? 'held' : 'failed'}`): GoldenCheck => ({ check, passed, reason })

/** A scripted turn (1-based `index`) with its calls `[first_call, first_call + calls)`. */
export function turn(index: number, over: Partial<TurnResult> = {}): TurnResult {
  return {
    index,
    user: `turn ${index}`,
    simulated: false,
    final_output: 'Done.',
    stop_reason: 'final_answer',
    first_call: 0,
    calls: 0,
    llm_calls: 1,
    tool_assertions: null,
    golden_assertions: null,
    judge: null,
    passed: true,
    ...over
  }
}

/** An evals/v1 suite's document from these runs (and the golden tool tests' absence), assembled by the real code. */
export function evalsV1Document(runs: RunResult[], options: { budgets?: Partial<Budgets>; section?: EvalsV1Section | null; tool_tests?: ResultsDocument['tool_tests'] } = {}): ResultsDocument {
  const doc = golden()
  return assembleDocument({
    started_at: doc.started_at,
    duration_s: doc.duration_s,
    config: { ...doc.config!, budgets: { ...NO_BUDGETS, ...options.budgets } },
    cases: [],
    behaviour: { status: 'ran', reason: null },
    conformance: null,
    tool_tests: options.tool_tests ?? null,
    runs: runs.map((r, i) => ({ ...r, index: i + 1 })),
    overhead: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    cache: null,
    cancelled: null,
    journal: null,
    evals_v1: options.section === undefined ? evalsV1Section() : options.section
  })
}

const v1Schema = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(fixturePath('../schema/evals-v1.schema.json'), 'utf8')) as object)

/** What our evals/v1 loaders say of a text: the published JSON Schema's errors, else the loader's (empty: accepted). */
export function v1Problems(text: string): string[] {
  if (!v1Schema(parseYaml(text))) return (v1Schema.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
  try {
    parseEvalsV1Suite(text, 'suite.yaml', { context: 'manual' })
    return []
  } catch (error) {
    return [(error as Error).message]
  }
}
