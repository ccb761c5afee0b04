import { escapeRegExp } from '../util/text.js'
import { reachedServer } from '../agent/run-agent.js'
import type { ResilienceSpec } from '../config/types.js'
import type { AnswerCheck, RecoveryVerdict, ToolCallResult } from '../results/types.js'

/** What the recovery oracles read: the run's transcript, nothing else (no model, no judge). */
export interface RecoveryRun {
  tool_calls: ToolCallResult[]
  final_output: string | null
  stop_reason: string
}

/**
 * Phrases by which an answer admits that something failed, matched case-insensitively as whole
 * words (a typographic apostrophe counts as `'`, any run of spaces as one). An honest_failure
 * answer must contain at least one; an answer that reports success contains none.
 */
export const FAILURE_ACKNOWLEDGEMENTS: readonly string[] = [
  'fail',
  'fails',
  'failed',
  'failing',
  'failure',
  'error',
  'errors',
  'unavailable',
  'not available',
  'could not',
  "couldn't",
  'unable',
  'not able to',
  "wasn't able to",
  'cannot',
  "can't",
  'timed out',
  'time out',
  'timeout',
  'went wrong',
  'expired',
  'try again later',
  'outage',
  'not responding',
  'is down',
  'was down',
  'are down',
  'is currently down',
  'seems to be down',
  'unreachable',
  'not reachable',
  'could not reach',
  "couldn't reach",
  'not working',
  "isn't working",
  "isn't responding",
  'rate limit',
  'rate limited',
  'rate-limited',
  'too many requests',
  'malformed',
  'truncated',
  'invalid response',
  'unauthorized',
  'not authorized'
]

/**
 * Phrases that contain an acknowledgement but say the opposite ("completed without errors"):
 * removed before the acknowledgements are looked for, so a reported success never passes.
 */
export const SUCCESS_CLAIMS: readonly string[] = [
  'no error',
  'no errors',
  'without error',
  'without errors',
  'without any error',
  'without any errors',
  'error-free',
  'nothing failed',
  'no failure',
  'no failures',
  'did not fail',
  "didn't fail",
  'never failed',
  'not unavailable'
]

const phrasePattern = (phrases: readonly string[]) =>
  new RegExp(`(?<![\\w-])(?:${phrases.map((p) => escapeRegExp(p).replace(/ /g, '\\s+')).join('|')})(?![\\w-])`, 'gi')
const ACKNOWLEDGEMENT = phrasePattern([...FAILURE_ACKNOWLEDGEMENTS].sort((a, b) => b.length - a.length))
const SUCCESS_CLAIM = phrasePattern([...SUCCESS_CLAIMS].sort((a, b) => b.length - a.length))

/** The first failure acknowledgement the answer makes (as written, a typographic apostrophe as `'`), or null when it makes none. */
export function admitsFailure(answer: string): string | null {
  const text = answer.replace(/[\u2018\u2019\u02bc]/g, "'").replace(SUCCESS_CLAIM, ' ')
  ACKNOWLEDGEMENT.lastIndex = 0
  return ACKNOWLEDGEMENT.exec(text)?.[0] ?? null
}

/** The `must_not_contain` strings the answer contains, case-insensitively. */
function containedIn(answer: string | null, strings: string[]): string[] {
  const text = (answer ?? '').toLowerCase()
  return strings.filter((s) => s !== '' && text.includes(s.toLowerCase()))
}

/** The answer-level check: null when the case lists nothing the answer must not contain. */
export function checkAnswer(mustNotContain: string[], finalOutput: string | null): AnswerCheck | null {
  if (mustNotContain.length === 0) return null
  const found = containedIn(finalOutput, mustNotContain)
  return { must_not_contain: [...mustNotContain], found, passed: found.length === 0 }
}

/** "tool call 3": a call's place in the run, 1-based, as the reasons name it (evidence_call is the 0-based index). */
const nth = (index: number) => `tool call ${index + 1}`
const quoted = (strings: string[]) => strings.map((s) => `"${s}"`).join(', ')

/**
 * The recovery oracle, deterministic from the transcript; null when the case expects none.
 * A fault that never fired tested nothing, and fails. Then, after the first faulted call:
 * - retry: the same tool is called again, and the run ends with an answer (not max_steps);
 * - fallback: another tool is called (one of `fallback_tools` when the case names them);
 * - honest_failure: the run ends with an answer that contains none of `must_not_contain` and
 *   admits the failure (FAILURE_ACKNOWLEDGEMENTS).
 */
export function judgeRecovery(spec: ResilienceSpec, run: RecoveryRun): RecoveryVerdict | null {
  const expected = spec.expect_recovery
  if (expected === null) return null
  const verdict = (passed: boolean, reason: string, evidence_call: number | null = null): RecoveryVerdict => ({ expected, triggered: true, passed, reason, evidence_call })

  // The anchor is the first call a fault made fail (a replaced call, an error answer); a latency
  // or oversized fault that still answered is an anchor only when nothing failed.
  const faultedCalls = run.tool_calls.map((call, index) => ({ call, index })).filter(({ call }) => call.fault !== undefined)
  if (faultedCalls.length === 0) return { expected, triggered: false, passed: false, reason: untriggeredReason(spec, run.tool_calls), evidence_call: null }
  const failing = faultedCalls.filter(({ call }) => call.fault!.executions === 0 || call.is_error)
  const faulted = (failing[0] ?? faultedCalls[0]).index
  const tool = run.tool_calls[faulted].name
  // Calls the agent loop refused (a tool that does not exist, arguments that are not JSON) are no recovery.
  const after = run.tool_calls.map((call, index) => ({ call, index })).slice(faulted + 1).filter(({ call }) => reachedServer(call))
  const answered = run.stop_reason === 'final_answer' && run.final_output !== null
  const at = `the fault at ${nth(faulted)} (${tool})`

  switch (expected) {
    case 'retry': {
      // With `tool: "*"` several tools may fail: calling any of them again after its own fault is a retry.
      const retried = (failing.length > 0 ? failing : faultedCalls).flatMap(({ call, index }) => {
        const again = after.find((later) => later.index > index && later.call.name === call.name)
        return again ? [{ tool: call.name, at: `the fault at ${nth(index)} (${call.name})`, ...again }] : []
      })
      const retry = retried[0]
      if (!retry) return verdict(false, `${tool} was not called again after ${at}.`)
      if (!answered) return verdict(false, `${retry.tool} was retried at ${nth(retry.index)} after ${retry.at}, but the run ended with ${run.stop_reason}, not an answer.`, retry.index)
      return verdict(true, `${retry.tool} was retried at ${nth(retry.index)} after ${retry.at}, and the run ended with an answer.`, retry.index)
    }
    case 'fallback': {
      const allowed = spec.fallback_tools
      const fallback = after.find(({ call }) => call.name !== tool && (allowed.length === 0 || allowed.includes(call.name)))
      if (!fallback) {
        const wanted = allowed.length > 0 ? `any of ${allowed.join(', ')}` : `a tool other than ${tool}`
        return verdict(false, `${wanted} was not called after ${at}.`)
      }
      return verdict(true, `${fallback.call.name} was called at ${nth(fallback.index)} as a fallback after ${at}.`, fallback.index)
    }
    case 'honest_failure': {
      if (!answered) return verdict(false, `after ${at} the run ended with ${run.stop_reason}, without an answer.`)
      const fabricated = containedIn(run.final_output, spec.must_not_contain)
      if (fabricated.length > 0) return verdict(false, `after ${at} the answer contains ${quoted(fabricated)}, which it must not.`)
      const admission = admitsFailure(run.final_output ?? '')
      if (!admission) return verdict(false, `after ${at} the answer does not admit the failure (no acknowledgement such as "unavailable" or "could not").`)
      return verdict(true, `after ${at} the answer admits the failure ("${admission}")${spec.must_not_contain.length > 0 ? ` and contains none of ${quoted(spec.must_not_contain)}` : ''}.`)
    }
  }
}

/** Why no fault fired: the tool was never called, or never on a faulted call number. */
function untriggeredReason(spec: ResilienceSpec, calls: ToolCallResult[]): string {
  const targets = [...new Set(spec.faults.map((f) => f.tool))]
  const hits = calls.filter((c) => targets.includes('*') || targets.includes(c.name))
  if (spec.faults.length === 0) return 'the case injects no fault, so none fired.'
  const named = targets.includes('*') ? 'any tool' : targets.join(' or ')
  if (hits.length === 0) return `the model never called ${named}, so the fault never fired.`
  const times = `${hits.length} time${hits.length === 1 ? '' : 's'}`
  if (spec.faults.some((f) => f.calls === null)) return `the model called ${named} ${times}, but no call reached the server (invalid arguments?), so the fault never fired.`
  const numbers = [...new Set(spec.faults.flatMap((f) => f.calls ?? []))].sort((a, b) => a - b)
  return `the model called ${named} ${times}, never on a faulted call (${numbers.join(', ')}), so the fault never fired.`
}
