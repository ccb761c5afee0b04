import { describe, expect, test } from '@jest/globals'
import { CancelledError, runAbort } from '../src/execute/cancellation.js'

describe("a run's one abort", () => {
  test("the job's cancel aborts it with the cancel's own reason", () => {
    const job = new AbortController()
    const run = runAbort(job.signal)
    const reason = new CancelledError('SIGINT', '2026-12-06T00:00:00.000Z')
    job.abort(reason)
    expect(run.signal.aborted).toBe(true)
    expect(run.signal.reason).toBe(reason)
  })

  test('a job already cancelled: aborted from the start', () => {
    const run = runAbort(AbortSignal.abort(new Error('before')))
    expect((run.signal.reason as Error).message).toBe('before')
  })

  test('a limit aborts it with its message; a cleared one never does', async () => {
    const cleared = runAbort(undefined)
    cleared.limit(5, 'too slow')()
    const limited = runAbort(undefined)
    limited.limit(5, 'the server did not start within timeout_seconds (1s)')
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(cleared.signal.aborted).toBe(false)
    expect((limited.signal.reason as Error).message).toBe('the server did not start within timeout_seconds (1s)')
  })

  test("disposed: the job's cancel no longer reaches it, and it leaves no listener on the job's signal", () => {
    const job = new AbortController()
    let listeners = 0
    const add = job.signal.addEventListener.bind(job.signal)
    const remove = job.signal.removeEventListener.bind(job.signal)
    job.signal.addEventListener = ((...args: Parameters<typeof add>) => (listeners++, add(...args))) as typeof add
    job.signal.removeEventListener = ((...args: Parameters<typeof remove>) => (listeners--, remove(...args))) as typeof remove
    const run = runAbort(job.signal)
    expect(listeners).toBe(1)
    run.dispose()
    expect(listeners).toBe(0)
    job.abort(new Error('later'))
    expect(run.signal.aborted).toBe(false)
  })
})
