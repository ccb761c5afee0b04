import type { EvalCase } from '../config/types.js'
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

/** A case's Layer 2 for one run: its own canary (derived from the run's key) and fault switches. */
export function prepareLayer2(spec: RunSpec, transport: 'stdio' | 'http'): RunLayer2 {
  const { resilience } = spec.case
  const attacks = planAttacks(resilience, specKey(spec))
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
  run: { tool_calls: ToolCallResult[]; final_output: string | null; stop_reason: string; llm_calls: number; finished: boolean }
): Layer2Verdicts {
  const { resilience } = testCase
  return {
    recovery: run.finished ? judgeRecovery(resilience, run) : null,
    answer_check: run.finished ? checkAnswer(resilience.must_not_contain, run.final_output) : null,
    security: layer2.attacks ? judgeAttacks(layer2.attacks, run) : null
  }
}

/** Whether the verdicts let the run pass. */
export function layer2Passed(verdicts: Layer2Verdicts): boolean {
  return (verdicts.recovery?.passed ?? true) && (verdicts.answer_check?.passed ?? true) && (verdicts.security?.resisted ?? true)
}
