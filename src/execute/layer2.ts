import type { EvalCase, Json } from '../config/types.js'
import type { McpSession, OpenOptions } from '../mcp/session.js'
import type { WatchedSession } from '../conformance/observe-session.js'
import type { RunSpec } from '../plan/expand.js'
import { specKey } from '../plan/expand.js'
import { withFaults } from '../resilience/faults.js'
import { createHttpFaults, type HttpFaults } from '../resilience/http-faults.js'
import { checkAnswer, judgeRecovery } from '../resilience/recovery.js'
import type { AnswerCheck, RecoveryVerdict, SecurityVerdict, ToolCallResult } from '../results/types.js'
import { withAttacks } from '../security/attack-session.js'
import { judgeAttacks } from '../security/oracles.js'
import { planAttacks, type AttackPlan } from '../security/plan.js'

/** What one run's faults and attacks need, from before its server starts to its verdict. */
export interface RunLayer2 {
  attacks: AttackPlan | null
  /** HTTP-level faults (a 503, a 401, a cut stream) go through the transport's fetch. */
  http: HttpFaults | null
  /** The system prompt as sent: a secret-request attack adds a confidential marker for the oracle to watch. */
  systemPrompt: string
  /** How the run's session is opened. */
  open: OpenOptions
}

/** The tools a case expects the model to call. */
function neededTools(testCase: EvalCase): string[] {
  const golden = testCase.golden
  return [...new Set([...testCase.required_tools.map((r) => r.name), ...(golden?.expect_tool ? [golden.expect_tool] : []), ...(golden?.expect_sequence ?? [])])]
}

/** A case's Layer 2 for one run: its own canary (derived from the run's key) and fault switches. */
export function prepareLayer2(spec: RunSpec, transport: 'stdio' | 'http'): RunLayer2 {
  const { resilience } = spec.case
  const attacks = planAttacks(resilience, specKey(spec), { needed: neededTools(spec.case) })
  const http = transport === 'http' && resilience.faults.length > 0 ? createHttpFaults() : null
  return {
    attacks,
    http,
    systemPrompt: attacks?.system_addendum ? `${spec.system_prompt}\n\n${attacks.system_addendum}` : spec.system_prompt,
    open: http ? { wrapFetch: (fetch) => http.wrapFetch(fetch) } : {}
  }
}

/**
 * The session the agent sees: faults wrap the observed session (so observed conformance checks
 * only what the server really answered), attacks wrap the faults (a payload rides on whatever
 * result the agent gets). Unchanged for a case with neither.
 */
export function wrapForRun(watched: WatchedSession, testCase: EvalCase, layer2: RunLayer2): McpSession {
  const { session } = watched
  // The real answers behind a fault (latency, oversized before padding, a re-sent call) are checked too.
  const faulted = testCase.resilience.faults.length > 0 ? withFaults(session, testCase.resilience.faults, { http: layer2.http, observe: (call) => void watched.check(call) }) : session
  return layer2.attacks ? withAttacks(faulted, layer2.attacks) : faulted
}

export interface Layer2Verdicts {
  recovery: RecoveryVerdict | null
  answer_check: AnswerCheck | null
  security: SecurityVerdict | null
}

/**
 * The deterministic oracles over what the run did. A run that errored or was cancelled gets no
 * recovery or answer verdict (it gave no answer to judge); its attacks are still judged, since an
 * attack that succeeded before the error did succeed.
 */
export function layer2Verdicts(
  testCase: EvalCase,
  layer2: RunLayer2,
  run: { tool_calls: ToolCallResult[]; final_output: string | null; stop_reason: string; llm_calls: number; finished: boolean; cancelled: boolean },
  redact: (text: string) => string = (text) => text
): Layer2Verdicts {
  const { resilience } = testCase
  // Secrets out first: evidence quotes a window of an argument or the answer, and a secret cut
  // at the window's edge could no longer be found whole by the redaction of the document.
  const judged = {
    ...run,
    tool_calls: run.tool_calls.map((c) => ({ ...c, args: redactStrings(c.args, redact) })),
    final_output: run.final_output === null ? null : redact(run.final_output)
  }
  return {
    recovery: run.finished ? judgeRecovery(resilience, judged) : null,
    answer_check: run.finished ? checkAnswer(resilience.must_not_contain, judged.final_output) : null,
    // A cancelled run has no verdict; an attack it had not yet acted on is not "not resisted".
    security: layer2.attacks && !run.cancelled ? judgeAttacks(layer2.attacks, judged) : null
  }
}

/** Every string in a JSON value, redacted. */
function redactStrings<T extends Json>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, redact)) as T
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v, redact)])) as T
  return value
}

/** Whether the verdicts let the run pass. */
export function layer2Passed(verdicts: Layer2Verdicts): boolean {
  return (verdicts.recovery?.passed ?? true) && (verdicts.answer_check?.passed ?? true) && (verdicts.security?.resisted ?? true)
}
