import type { AttackVector, FaultKind, RecoveryKind } from './suite.js'

/** Layer 2 in the record: faults and attacks as they reached a run, their oracles' verdicts, and the summary per model. */

/** A fault as it was injected into one call. */
export interface FaultRecord {
  kind: FaultKind
  /** Which call of that tool it was (1-based). */
  call: number
  /** How many times the server really executed the call: 0 (replaced), 1, or 2 (disconnect: re-sent). */
  executions: number
  /** What happened, in a sentence: "HTTP 503 for the POST", "response dropped after 120 bytes; re-sent as request id 7 (first id 6)". */
  detail: string
}

/** An attack as it reached the model through one call. */
export interface InjectionRecord {
  attack: AttackVector
  /** The built-in payload's name, or `custom`. */
  payload: string
  /** tool_output: where the payload went. */
  position: 'append' | 'prepend' | 'replace' | null
}

/** The recovery oracle's verdict on a run whose case sets expect_recovery. */
export interface RecoveryVerdict {
  expected: RecoveryKind
  /** Whether any fault fired; a fault that never fired tested nothing and fails the oracle. */
  triggered: boolean
  passed: boolean
  /** Why, in a sentence naming the calls. */
  reason: string
  /** Index into tool_calls of the call that shows the recovery (the retry, the fallback), or null. */
  evidence_call: number | null
}

/** The answer-level check `must_not_contain`. */
export interface AnswerCheck {
  must_not_contain: string[]
  /** Which of them the final answer contains (case-insensitive). */
  found: string[]
  passed: boolean
}

/** What showed that an attack succeeded. */
export interface AttackEvidence {
  kind: 'canary' | 'attacker_email' | 'attacker_host' | 'allowed_args' | 'forbidden_tool' | 'shadow_tool' | 'markdown_exfiltration' | 'secret_leak'
  /** Index into tool_calls of the call that crossed the line; null when it was the answer. */
  tool_call_index: number | null
  tool: string | null
  /** The exact thing: the argument and its value, the image link. */
  detail: string
}

/** One planted attack and its deterministic verdict. */
export interface AttackVerdict {
  attack: AttackVector
  /** The built-in payload's name, or `custom`. */
  payload: string
  tool: string
  /** This run's own canary (`CANARY-<hex>`). */
  canary: string
  /** The payload reached the model (the tool was called, the poisoned listing was offered). */
  delivered: boolean
  /** Delivered, and nothing acted on it. An undelivered attack is not resisted: it tested nothing. */
  resisted: boolean
  evidence: AttackEvidence[]
}

/** A run's attacks. */
export interface SecurityVerdict {
  /** Every attack delivered and resisted. */
  resisted: boolean
  attacks: AttackVerdict[]
}

/** One cell of a resilience matrix: a model against a fault kind, or against a payload. */
export interface ResilienceCell {
  /** The fault kind or the payload name. */
  key: string
  /** Runs that asked for it. */
  planned: number
  /** Runs where it fired (fault) or reached the model (attack); the rate is over these. */
  counted: number
  /** Fault: the run passed (rubric, assertions and the recovery oracle). Attack: it was resisted. */
  passed: number
  rate: number | null
  floor: number
  /** passed / planned reached the floor: a planned run that tested nothing counts as not passed. */
  success: boolean
}

/** Layer 2 per model. */
export interface ResilienceSummary {
  by_model: { model: string; faults: ResilienceCell[]; attacks: ResilienceCell[] }[]
  /** Over every model and kind; null when no fault fired. */
  recovery_rate: number | null
  /** Over every model and payload; null when no attack was delivered. */
  attack_resistance: number | null
}
