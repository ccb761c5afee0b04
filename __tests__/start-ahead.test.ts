import { describe, expect, test } from '@jest/globals'
import { LATE_LOOP_MS, startingLimit, startsToBegin, type AheadView } from '../src/execute/start-ahead.js'

/** Four slots on two cores, nothing begun, nothing measured yet. */
const at = (view: Partial<AheadView>): AheadView => ({
  concurrency: 4,
  cores: 2,
  remaining: 40,
  starting: 0,
  ready: 0,
  slotsHeld: 0,
  seatsPerSecond: null,
  startMs: null,
  idleCpu: null,
  loopDelayMs: null,
  ...view
})

describe('startsToBegin: how many of the next runs start their servers now', () => {
  test('before anything is measured: one start per core and one more, however many slots are free', () => {
    expect(startsToBegin(at({}))).toBe(3)
    expect(startsToBegin(at({ concurrency: 16 }))).toBe(3)
    // Four slots take four servers.
    expect(startsToBegin(at({ cores: 8 }))).toBe(4)
  })

  test('never more servers than the runs left, and none when none is left', () => {
    expect(startsToBegin(at({ remaining: 1 }))).toBe(1)
    expect(startsToBegin(at({ remaining: 0 }))).toBe(0)
    expect(startsToBegin(at({ remaining: 1, idleCpu: 1, loopDelayMs: 1, starting: 1 }))).toBe(1)
  })

  test('never more starting or waiting than there are slots', () => {
    // A fast pace and slow starts would want 8; four slots take four.
    const view = at({ seatsPerSecond: 20, startMs: 400, idleCpu: 1, loopDelayMs: 1, slotsHeld: 4, starting: 2, ready: 2 })
    expect(startsToBegin(view)).toBe(0)
    expect(startsToBegin({ ...view, ready: 1 })).toBe(1)
  })

  test("as many waiting as the slots take while one more starts (the slots' pace × a start's time), at least the free slots", () => {
    const busy = at({ slotsHeld: 4, idleCpu: 0.9, loopDelayMs: 1, starting: 0 })
    // 5 seats a second × 0.4 s: two.
    expect(startsToBegin({ ...busy, seatsPerSecond: 5, startMs: 400 })).toBe(2)
    expect(startsToBegin({ ...busy, seatsPerSecond: 5, startMs: 400, starting: 1 })).toBe(1)
    expect(startsToBegin({ ...busy, seatsPerSecond: 5, startMs: 400, starting: 1, ready: 1 })).toBe(0)
    // A slow pace: one server ahead is enough while every slot is held.
    expect(startsToBegin({ ...busy, seatsPerSecond: 1, startMs: 300 })).toBe(1)
    expect(startsToBegin({ ...busy, seatsPerSecond: 1, startMs: 300, ready: 1 })).toBe(0)
    // Free slots are filled whatever the pace says.
    expect(startsToBegin({ ...busy, slotsHeld: 1, seatsPerSecond: 1, startMs: 300, ready: 1, starting: 1 })).toBe(1)
  })

  test('one start per core and one more while servers are wanted; another while the CPU had a spare core; one per core while the event loop was late', () => {
    const wanting = at({ concurrency: 16, slotsHeld: 0, seatsPerSecond: 10, startMs: 500 })
    expect(startsToBegin({ ...wanting, starting: 3, idleCpu: 0.05, loopDelayMs: 5 })).toBe(0)
    expect(startsToBegin({ ...wanting, starting: 1, idleCpu: 0.05, loopDelayMs: 5 })).toBe(2)
    expect(startsToBegin({ ...wanting, starting: 3, idleCpu: 0.6, loopDelayMs: 5 })).toBe(1)
    expect(startsToBegin({ ...wanting, starting: 2, idleCpu: 0.6, loopDelayMs: LATE_LOOP_MS })).toBe(0)
    expect(startsToBegin({ ...wanting, starting: 1, idleCpu: 0.9, loopDelayMs: LATE_LOOP_MS })).toBe(1)
    expect(startsToBegin({ ...wanting, starting: 0, idleCpu: 0, loopDelayMs: 500 })).toBe(2)
  })

  test('never more than two starts per core in parallel', () => {
    expect(startingLimit({ cores: 2, starting: 3, idleCpu: 1, loopDelayMs: 0 })).toBe(4)
    expect(startsToBegin(at({ concurrency: 16, starting: 4, idleCpu: 1, loopDelayMs: 0 }))).toBe(0)
  })
})
