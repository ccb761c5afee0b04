import type { ConformanceSection, Changes, FindingChange, GateResult, ResultsDocument, RunResult, RunSnapshot, ToolSurfaceDiff } from '../results/types.js'
import type { TokenUsage } from '../llm/chat.js'
import { groupKey } from './gate.js'

/** How much of an answer the document keeps for a side-by-side of a regression. */
const SNAPSHOT_ANSWER_CHARS = 2000

/**
 * What differs from the baseline: conformance findings, the tool surface, cost and run time,
 * and for each group that regressed, a run from each side. Pure; the gate supplies the groups.
 */
export function compareWithBaseline(doc: ResultsDocument, gate: GateResult, baseline: { document: ResultsDocument; source: string }): Changes {
  const before = baseline.document
  return {
    baseline: { source: baseline.source, started_at: before.started_at },
    conformance: doc.conformance && before.conformance ? findingChanges(doc.conformance, before.conformance) : null,
    tools: toolSurfaceDiff(doc, before),
    cost_usd: { baseline: totalCost(before), current: totalCost(doc) },
    median_run_s: { baseline: medianRunSeconds(before.runs), current: medianRunSeconds(doc.runs) },
    regressions: gate.regressed.map((group) => ({
      group,
      baseline: snapshot(runsOf(before, group).find((r) => r.status === 'passed')),
      current: snapshot(runsOf(doc, group).find((r) => r.status !== 'passed'))
    }))
  }
}

/** A finding is new when the baseline did not have it at that status (a warning that became a failure is news). */
function findingChanges(now: ConformanceSection, then: ConformanceSection): { new: FindingChange[]; resolved: FindingChange[] } {
  const findings = (s: ConformanceSection): FindingChange[] =>
    s.checks.flatMap((c) => (c.status === 'fail' || c.status === 'warn' ? [{ id: c.id, status: c.status, message: c.message }] : []))
  const key = (f: FindingChange) => `${f.id} ${f.status}`
  const current = findings(now)
  const previous = findings(then)
  const had = new Set(previous.map(key))
  const has = new Set(current.map((f) => f.id))
  return { new: current.filter((f) => !had.has(key(f))), resolved: previous.filter((f) => !has.has(f.id)) }
}

function toolSurfaceDiff(doc: ResultsDocument, baseline: ResultsDocument): ToolSurfaceDiff | null {
  const now = doc.conformance?.tools
  const then = baseline.conformance?.tools
  if (!now || !then) return null
  const previous = new Map(then.map((t) => [t.name, t]))
  const current = new Map(now.map((t) => [t.name, t]))
  const changed: ToolSurfaceDiff['changed'] = []
  for (const tool of now) {
    const old = previous.get(tool.name)
    if (!old) continue
    const what: ToolSurfaceDiff['changed'][number]['what'] = []
    if (old.description_sha !== tool.description_sha) what.push('description')
    if (old.input_schema_sha !== tool.input_schema_sha) what.push('input schema')
    if (old.output_schema_sha !== tool.output_schema_sha) what.push('output schema')
    if (what.length) changed.push({ name: tool.name, what })
  }
  return { added: now.filter((t) => !previous.has(t.name)).map((t) => t.name), removed: then.filter((t) => !current.has(t.name)).map((t) => t.name), changed }
}

/** The agent's and the judge's cost, as the provider reported it; null when it reported none. */
export function totalCost(doc: ResultsDocument): number | null {
  const costs = [doc.summary.tokens.agent, doc.summary.tokens.judge].map((u: TokenUsage) => u.cost_usd).filter((c): c is number => typeof c === 'number')
  return costs.length ? costs.reduce((a, b) => a + b, 0) : null
}

/** The median duration of the runs that reached a verdict (errored and cancelled runs say nothing about speed). */
export function medianRunSeconds(runs: RunResult[]): number | null {
  const times = runs.filter((r) => r.status === 'passed' || r.status === 'failed').map((r) => r.duration_s).sort((a, b) => a - b)
  if (times.length === 0) return null
  const mid = Math.floor(times.length / 2)
  return times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2
}

const runsOf = (doc: ResultsDocument, group: string) => doc.runs.filter((r) => groupKey(r) === group)

function snapshot(run: RunResult | undefined): RunSnapshot | null {
  if (!run) return null
  const answer = run.final_output
  return {
    status: run.status,
    final_output: answer === null ? null : answer.length > SNAPSHOT_ANSWER_CHARS ? `${answer.slice(0, SNAPSHOT_ANSWER_CHARS)}…` : answer,
    tool_calls: run.tool_calls.map((c) => ({ name: c.name, args: c.args })),
    score: run.metrics[0]?.score ?? null
  }
}
