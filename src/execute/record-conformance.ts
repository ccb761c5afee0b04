import { conformancePassed, type FailOn } from '../conformance/run.js'
import type { ConformanceReport } from '../conformance/types.js'
import type { JournalWriter } from './journal.js'

/** The conformance section, appended to the journal once the probe is done; nothing when the evaluation is cancelled first. */
export async function recordConformance(
  pending: Promise<ConformanceReport>,
  journal: JournalWriter,
  failOn: FailOn,
  hooks: { cancel?: AbortSignal; onConformance?: (report: ConformanceReport) => void },
  warn: (message: string) => void
): Promise<void> {
  let report: ConformanceReport | null
  try {
    report = await untilCancelled(pending, hooks.cancel)
  } catch (error) {
    // The runs have run (and spent) meanwhile: a probe that broke after reaching the server costs its section, not the evaluation.
    warn(`Conformance: the probes failed after reaching the server (${(error as Error).message}); the document has no conformance section.`)
    return
  }
  if (!report) return
  hooks.onConformance?.(report)
  journal.append({ type: 'conformance', section: { ...report, fail_on: failOn, passed: conformancePassed(report, failOn) } })
}

/** Resolves with the promise's value, or with null as soon as the evaluation is cancelled. */
export function untilCancelled<T>(promise: Promise<T>, cancel: AbortSignal | undefined): Promise<T | null> {
  if (!cancel) return promise
  return new Promise<T | null>((resolve, reject) => {
    const onAbort = () => resolve(null)
    cancel.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => cancel.removeEventListener('abort', onAbort))
  })
}
