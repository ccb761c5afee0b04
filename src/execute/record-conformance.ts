import type { ExpectedFailuresFile } from '../config/expected-failures.js'
import { applyExpectedFailures } from '../conformance/expected-failures.js'
import { OBSERVED_CHECKS } from '../conformance/observed.js'
import { conformancePassed, type FailOn } from '../conformance/run.js'
import type { ConformanceReport } from '../conformance/types.js'
import type { JournalWriter } from './journal.js'

/** The conformance section, appended to the journal once the probe is done; nothing when the evaluation is cancelled first. */
export async function recordConformance(
  pending: Promise<ConformanceReport>,
  journal: JournalWriter,
  failOn: FailOn,
  hooks: { cancel?: AbortSignal; onConformance?: (report: ConformanceReport) => void },
  warn: (message: string) => void,
  expected: ExpectedFailuresFile | null = null
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
  // The file's entries go with the section (the document applies them again once the observed checks join).
  const listed = expected ? { expected_failures: { file: expected.file, entries: expected.entries.map((e) => ({ ...e, outcome: 'not-run' as const })) } } : {}
  const section = applyExpectedFailures({ ...report, ...listed }, OBSERVED_CHECKS.map((c) => c.id))
  journal.append({ type: 'conformance', section: { ...section, fail_on: failOn, passed: conformancePassed(section, failOn) } })
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
