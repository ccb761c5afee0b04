import { describe, expect, test } from '@jest/globals'
import { CLEAR_LINE, formatElapsed, LiveProgress } from '../src/cli/live-progress.js'
import type { RunSpec } from '../src/plan/expand.js'
import type { RunResult } from '../src/results/types.js'

/** A stream that keeps what was written, one string per write. */
function sink(columns?: number) {
  const writes: string[] = []
  return { writes, columns, write: (text: string) => writes.push(text), text: () => writes.join('') }
}

/** A clock the test moves by hand. */
function clock(start = 1000) {
  let t = start
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

const spec = (id: string, attempt = 1) => ({ index: 1, attempt, case: { id }, model: 'm/one', prompt_name: 'default', system_prompt: '' }) as unknown as RunSpec

function run(id: string, status: RunResult['status'], cost?: { agent?: number; judge?: number }, attempt = 1): RunResult {
  const usage = (c?: number) => ({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, ...(c === undefined ? {} : { cost_usd: c }) })
  return {
    case_id: id,
    model: 'm/one',
    prompt_name: 'default',
    attempt,
    status,
    usage: usage(cost?.agent),
    judge: cost?.judge === undefined ? null : { usage: usage(cost.judge) }
  } as unknown as RunResult
}

const ESC = /[\x1b\r]/

describe('LiveProgress on a terminal', () => {
  test('one status line at the bottom, rewritten in place; run lines above it', () => {
    const out = sink()
    const time = clock()
    const live = new LiveProgress(out, { isTTY: true, total: 3, now: time.now, tickMs: 0 })
    expect(out.text()).toBe(`${CLEAR_LINE}0/3 done · 0 in flight · 0 failed · 0s`)

    live.started(spec('a'))
    live.started(spec('b'))
    expect(out.writes.at(-1)).toBe(`${CLEAR_LINE}0/3 done · 2 in flight · 0 failed · 0s`)

    time.advance(65_000)
    live.finished(run('a', 'failed', { agent: 0.01, judge: 0.0023 }), '[1/3] ✗ a')
    // The line replaces the status line, ends with a newline, and the status line is drawn again under it.
    expect(out.writes.at(-1)).toBe(`${CLEAR_LINE}[1/3] ✗ a\n1/3 done · 1 in flight · 1 failed · 1m05s · $0.0123`)

    live.finished(run('b', 'error'), '[2/3] ! b')
    expect(out.writes.at(-1)).toBe(`${CLEAR_LINE}[2/3] ! b\n2/3 done · 0 in flight · 2 failed · 1m05s · $0.0123`)

    live.stop()
    expect(out.writes.at(-1)).toBe(CLEAR_LINE)
    // After stop (finished, or cancelled): plain lines, and the status line never comes back.
    live.finished(run('c', 'cancelled'), '[3/3] - c')
    expect(out.writes.at(-1)).toBe('[3/3] - c\n')
    live.stop()
    expect(out.writes.at(-1)).toBe('[3/3] - c\n')
  })

  test('no spend until a run reports a cost; a reused run (never started) does not go below zero in flight', () => {
    const out = sink()
    const live = new LiveProgress(out, { isTTY: true, total: 2, now: clock().now, tickMs: 0 })
    live.finished(run('reused', 'passed'), '[1/2] ✓ reused')
    expect(live.status()).toBe('1/2 done · 0 in flight · 0 failed · 0s')
    live.started(spec('x', 2))
    live.finished(run('x', 'passed', undefined, 1), '[2/2] ✓ x')
    // Another repeat of the same case finished: the started one (repeat 2) is still in flight.
    expect(live.status()).toBe('2/2 done · 1 in flight · 0 failed · 0s')
    live.stop()
  })

  test("--demo's spend is the scripted model's: the status line says simulated", () => {
    const live = new LiveProgress(sink(), { isTTY: true, total: 1, now: clock().now, tickMs: 0, simulatedCost: true })
    live.finished(run('a', 'passed', { agent: 0.00015 }), '[1/1] ✓ a')
    expect(live.status()).toBe('1/1 done · 0 in flight · 0 failed · 0s · $0.00015 simulated')
    live.stop()
  })

  test('lines for another stream (stderr) clear the status line first and redraw it after', () => {
    const out = sink()
    const err = sink()
    const live = new LiveProgress(out, { isTTY: true, total: 1, now: clock().now, tickMs: 0 })
    live.line('warning: something', err)
    expect(err.writes).toEqual(['warning: something\n'])
    expect(out.writes.slice(-2)).toEqual([CLEAR_LINE, `${CLEAR_LINE}0/1 done · 0 in flight · 0 failed · 0s`])
    live.stop()
  })

  test('the clock ticks on its own; the status line never wraps a narrow terminal', async () => {
    const out = sink(20)
    const live = new LiveProgress(out, { isTTY: true, total: 40, tickMs: 5 })
    await new Promise((r) => setTimeout(r, 40))
    live.stop()
    const redraws = out.writes.filter((w) => w.startsWith(CLEAR_LINE) && w.length > CLEAR_LINE.length)
    expect(redraws.length).toBeGreaterThan(2)
    for (const w of redraws) expect(w.slice(CLEAR_LINE.length).length).toBeLessThan(20)
  })
})

describe('LiveProgress elsewhere (not a terminal, or CI)', () => {
  test('plain lines only, never an escape code', () => {
    const out = sink()
    const err = sink()
    const live = new LiveProgress(out, { isTTY: false, total: 2, now: clock().now, tickMs: 5 })
    live.line('Conformance: fine')
    live.started(spec('a'))
    live.finished(run('a', 'passed', { agent: 0.5 }), '[1/2] ✓ a')
    live.line('warning: w', err)
    live.stop()
    expect(out.writes).toEqual(['Conformance: fine\n', '[1/2] ✓ a\n'])
    expect(err.writes).toEqual(['warning: w\n'])
    expect(out.text()).not.toMatch(ESC)
  })

  test('nothing planned (conformance only): no status line even on a terminal', () => {
    const out = sink()
    const live = new LiveProgress(out, { isTTY: true, total: 0, tickMs: 0 })
    live.line('Conformance: fine')
    live.stop()
    expect(out.text()).toBe('Conformance: fine\n')
  })

  test('wanted: a TTY, outside CI, not a dumb terminal', () => {
    expect(LiveProgress.wanted({ isTTY: true }, {})).toBe(true)
    expect(LiveProgress.wanted({ isTTY: true }, { CI: 'true' })).toBe(false)
    expect(LiveProgress.wanted({ isTTY: true }, { TERM: 'dumb' })).toBe(false)
    expect(LiveProgress.wanted({ isTTY: false }, {})).toBe(false)
    expect(LiveProgress.wanted({}, {})).toBe(false)
  })
})

test('elapsed time reads 42s, 1m05s, 2h03m07s', () => {
  expect(formatElapsed(0)).toBe('0s')
  expect(formatElapsed(42_900)).toBe('42s')
  expect(formatElapsed(65_000)).toBe('1m05s')
  expect(formatElapsed((2 * 3600 + 3 * 60 + 7) * 1000)).toBe('2h03m07s')
})
