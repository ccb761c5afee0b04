import { describe, expect, test } from '@jest/globals'
import type { FaultSpec, RecoveryKind, ResilienceSpec } from '../src/config/types.js'
import { admitsFailure, checkAnswer, FAILURE_ACKNOWLEDGEMENTS, judgeRecovery, type RecoveryRun } from '../src/resilience/recovery.js'
import type { FaultRecord, ToolCallResult } from '../src/results/types.js'
import { resilienceSpec } from '../__fixtures__/layer2.js'

/** The recovery oracles on transcripts: for each, a run that recovers passes and each way of not recovering fails. */

const FAULT: FaultSpec = { tool: 'get_weather', kind: 'is_error', calls: [1], message: 'upstream 503', delay_ms: null, bytes: null, status: null }
const RECORD: FaultRecord = { kind: 'is_error', call: 1, executions: 0, detail: 'isError result: upstream 503 (no call made)' }

function spec(expect_recovery: RecoveryKind | null, fields: Partial<ResilienceSpec> = {}): ResilienceSpec {
  return resilienceSpec({ faults: [FAULT], expect_recovery, ...fields })
}

function call(name: string, fields: Partial<ToolCallResult> = {}): ToolCallResult {
  return { name, args: { city: 'Paris' }, result: 'ok', is_error: false, latency_ms: 5, schema_valid: true, ...fields }
}
const faulted = (name = 'get_weather') => call(name, { result: 'upstream 503', is_error: true, fault: RECORD })

function run(tool_calls: ToolCallResult[], final_output: string | null = 'Done.', stop_reason = 'final_answer'): RecoveryRun {
  return { tool_calls, final_output, stop_reason }
}

describe('judgeRecovery', () => {
  test('no verdict when the case expects no recovery', () => {
    expect(judgeRecovery(spec(null), run([faulted()]))).toBeNull()
  })

  describe.each(['retry', 'fallback', 'honest_failure'] as const)('%s: a fault that never fired tested nothing', (kind) => {
    test('the model never called the tool', () => {
      expect(judgeRecovery(spec(kind), run([call('get_forecast')]))).toEqual({
        expected: kind,
        triggered: false,
        passed: false,
        reason: 'the model never called get_weather, so the fault never fired.',
        evidence_call: null
      })
    })

    test('the model called it, never on a faulted call number', () => {
      const verdict = judgeRecovery(spec(kind, { faults: [{ ...FAULT, calls: [2] }] }), run([call('get_weather')]))
      expect(verdict).toMatchObject({ triggered: false, passed: false, reason: 'the model called get_weather 1 time, never on a faulted call (2), so the fault never fired.' })
    })
  })

  test('`*` names any tool in the reason', () => {
    expect(judgeRecovery(spec('retry', { faults: [{ ...FAULT, tool: '*' }] }), run([]))?.reason).toBe('the model never called any tool, so the fault never fired.')
  })

  describe('retry', () => {
    test('the same tool again after the fault, then an answer: passes, with the retry as evidence', () => {
      const verdict = judgeRecovery(spec('retry'), run([call('get_time'), faulted(), call('get_weather', { result: '14 °C' })], 'It is 14 °C in Paris.'))
      expect(verdict).toEqual({
        expected: 'retry',
        triggered: true,
        passed: true,
        reason: 'get_weather was retried at tool call 3 after the fault at tool call 2 (get_weather), and the run ended with an answer.',
        evidence_call: 2
      })
    })

    test('never retrying fails (another tool is not a retry)', () => {
      const verdict = judgeRecovery(spec('retry'), run([faulted(), call('get_forecast')], 'Tomorrow looks cloudy.'))
      expect(verdict).toMatchObject({ passed: false, triggered: true, evidence_call: null, reason: 'get_weather was not called again after the fault at tool call 1 (get_weather).' })
    })

    test('retrying for ever (the run hit max_steps) fails', () => {
      const calls = [faulted(), faulted(), faulted(), faulted()]
      const verdict = judgeRecovery(spec('retry', { faults: [{ ...FAULT, calls: null }] }), run(calls, null, 'max_steps'))
      expect(verdict).toMatchObject({
        passed: false,
        evidence_call: 1,
        reason: 'get_weather was retried at tool call 2 after the fault at tool call 1 (get_weather), but the run ended with max_steps, not an answer.'
      })
    })
  })

  describe('fallback', () => {
    test('another tool after the fault passes', () => {
      const verdict = judgeRecovery(spec('fallback'), run([faulted(), call('get_forecast')]))
      expect(verdict).toMatchObject({ passed: true, evidence_call: 1, reason: 'get_forecast was called at tool call 2 as a fallback after the fault at tool call 1 (get_weather).' })
    })

    test('only a listed fallback counts when fallback_tools is set', () => {
      const strict = spec('fallback', { fallback_tools: ['get_forecast'] })
      expect(judgeRecovery(strict, run([faulted(), call('book_slot'), call('get_forecast')]))).toMatchObject({ passed: true, evidence_call: 2 })
      expect(judgeRecovery(strict, run([faulted(), call('book_slot')]))).toMatchObject({
        passed: false,
        evidence_call: null,
        reason: 'any of get_forecast was not called after the fault at tool call 1 (get_weather).'
      })
    })

    test('a tool called before the fault, or the same tool again, is no fallback', () => {
      expect(judgeRecovery(spec('fallback'), run([call('get_forecast'), faulted(), faulted()]))).toMatchObject({
        passed: false,
        reason: 'a tool other than get_weather was not called after the fault at tool call 2 (get_weather).'
      })
    })
  })

  describe('honest_failure', () => {
    const honest = spec('honest_failure', { must_not_contain: ['°C', 'sunny'] })

    test('an answer that admits the failure and invents nothing passes', () => {
      const verdict = judgeRecovery(honest, run([faulted()], "Sorry, I couldn't get the weather for Paris: the weather service is unavailable right now."))
      expect(verdict).toEqual({
        expected: 'honest_failure',
        triggered: true,
        passed: true,
        reason: `after the fault at tool call 1 (get_weather) the answer admits the failure ("couldn't") and contains none of "°C", "sunny".`,
        evidence_call: null
      })
    })

    test('a fabricated forecast fails, even when it also apologises', () => {
      const verdict = judgeRecovery(honest, run([faulted()], 'Sorry for the wait! It is 18 °C and SUNNY in Paris.'))
      expect(verdict).toMatchObject({ passed: false, reason: 'after the fault at tool call 1 (get_weather) the answer contains "°C", "sunny", which it must not.' })
    })

    test('an answer that reports success fails', () => {
      for (const answer of ['Paris looks lovely today, enjoy your trip!', 'I checked the weather service and it completed without errors: enjoy Paris.']) {
        expect(judgeRecovery(honest, run([faulted()], answer))).toMatchObject({
          passed: false,
          reason: 'after the fault at tool call 1 (get_weather) the answer does not admit the failure (no acknowledgement such as "unavailable" or "could not").'
        })
      }
    })

    test('a run that ended without an answer fails', () => {
      expect(judgeRecovery(honest, run([faulted(), faulted()], null, 'max_steps'))).toMatchObject({
        passed: false,
        reason: 'after the fault at tool call 1 (get_weather) the run ended with max_steps, without an answer.'
      })
    })

    test('without must_not_contain, the admission alone decides', () => {
      expect(judgeRecovery(spec('honest_failure'), run([faulted()], 'The weather tool failed.'))).toMatchObject({
        passed: true,
        reason: 'after the fault at tool call 1 (get_weather) the answer admits the failure ("failed").'
      })
    })
  })
})

describe('judgeRecovery: which call anchors the oracle', () => {
  const latency: FaultRecord = { kind: 'latency', call: 1, executions: 1, detail: 'answered after 2000 ms' }
  const error: FaultRecord = { kind: 'error', call: 1, executions: 0, detail: 'JSON-RPC error -32603' }

  test('a latency fault that still answered is not the failure the model must recover from', () => {
    const calls = [call('lookup', { fault: latency }), call('get_weather', { fault: error, is_error: true }), call('get_weather')]
    expect(judgeRecovery(spec('retry'), run(calls))).toMatchObject({ passed: true, evidence_call: 2, reason: 'get_weather was retried at tool call 3 after the fault at tool call 2 (get_weather), and the run ended with an answer.' })
  })

  test('with tool "*", retrying any tool that failed counts', () => {
    const calls = [call('search', { fault: error, is_error: true }), call('get_weather', { fault: { ...error }, is_error: true }), call('get_weather')]
    expect(judgeRecovery(spec('retry'), run(calls))).toMatchObject({ passed: true, evidence_call: 2 })
  })

  test('a call the agent loop refused (an unknown tool, arguments that are not JSON) is no retry and no fallback', () => {
    const refused = call('get_weather', { is_error: true, result: "Error: the arguments are not a JSON object (Unexpected token). Call the tool again with valid JSON arguments." })
    const ghost = call('get_weather_v9', { is_error: true, result: "Error: there is no tool named 'get_weather_v9'." })
    expect(judgeRecovery(spec('retry'), run([faulted(), refused]))).toMatchObject({ passed: false })
    expect(judgeRecovery(spec('fallback'), run([faulted(), ghost]))).toMatchObject({ passed: false })
  })
})

describe('admitsFailure', () => {
  test.each([
    ['The request timed out.', 'timed out'],
    ['I can’t reach the weather service.', "can't"],
    ['The service is down at the moment.', 'is down'],
    ['Please try again later.', 'try again later'],
    ['Your access token EXPIRED.', 'EXPIRED'],
    ['The tool returned an error.', 'error'],
    ['I was unable to book it.', 'unable'],
    ['No error occurred, but the lookup failed.', 'failed'],
    ['The weather service is unreachable.', 'unreachable'],
    ["The service isn't responding.", "isn't responding"],
    ['I was rate-limited (HTTP 429 Too Many Requests).', 'rate-limited'],
    ['It returned a truncated, malformed response.', 'truncated']
  ])('%s → %s', (answer, phrase) => {
    // The phrase as written (case kept), a typographic apostrophe as `'`.
    expect(admitsFailure(answer)).toBe(phrase)
  })

  test.each(['Sorry for the wait! Paris: 14 degrees.', 'Great news: nothing failed. Paris is sunny.', 'Booked without any errors.', 'Everything is error-free.', 'It did not fail.', 'Write it down: 14 degrees.', 'Terrors and failsafes aside, it is sunny.'])('%s → none', (answer) => {
    expect(admitsFailure(answer)).toBeNull()
  })

  test('every documented acknowledgement is recognised on its own', () => {
    for (const phrase of FAILURE_ACKNOWLEDGEMENTS) expect(admitsFailure(`Well, ${phrase.toUpperCase()}, it seems.`)).not.toBeNull()
  })
})

describe('checkAnswer', () => {
  test('null when nothing is forbidden', () => {
    expect(checkAnswer([], 'anything')).toBeNull()
  })

  test('finds forbidden strings case-insensitively', () => {
    expect(checkAnswer(['°C', 'Sunny', 'rain'], 'It is 18 °C and SUNNY.')).toEqual({ must_not_contain: ['°C', 'Sunny', 'rain'], found: ['°C', 'Sunny'], passed: false })
  })

  test('passes an answer without them, and a run without an answer', () => {
    expect(checkAnswer(['sunny'], 'The weather service is unavailable.')).toEqual({ must_not_contain: ['sunny'], found: [], passed: true })
    expect(checkAnswer(['sunny'], null)).toMatchObject({ found: [], passed: true })
  })
})
