import { cutText, type BoundText } from '../agent/bound.js'
import { secretsOut, type RunLayer } from '../execute/run-layer.js'
import { wholeNumber } from '../util/words.js'
import { withFaults } from './faults.js'
import { createHttpFaults } from './http-faults.js'
import { checkAnswer, judgeRecovery } from './recovery.js'

/**
 * A case's faults as a run layer, just outside observed conformance (which checks only what the
 * server really answered): HTTP-level faults (a 503, a 401, a cut stream) go through the
 * transport's fetch, the others wrap the session. Records `recovery` and `answer_check`.
 */
export const faultLayer: RunLayer = {
  name: 'faults',
  prepare(spec, { transport }) {
    const { resilience } = spec.case
    const http = transport === 'http' && resilience.faults.length > 0 ? createHttpFaults() : null
    return {
      open: http ? { wrapFetch: (fetch) => http.wrapFetch(fetch) } : {},
      // The real answers behind a fault (latency, oversized before padding, a re-sent call) are checked too.
      wrap: (session, inner) => (resilience.faults.length > 0 ? withFaults(session, resilience.faults, { http, observe: (call) => inner.observe(call) }) : session),
      shapeCall: (call) => (call.annotations?.fault?.kind === 'oversized' ? { kept: withoutPadding(call.result) } : {}),
      record(run) {
        // A run that errored or was cancelled gets no recovery or answer verdict: it gave no answer to judge.
        const judged = secretsOut(run)
        const recovery = run.finished ? judgeRecovery(resilience, judged) : null
        const answer_check = run.finished ? checkAnswer(resilience.must_not_contain, judged.final_output) : null
        return { fields: { recovery, answer_check }, passed: (recovery?.passed ?? true) && (answer_check?.passed ?? true) }
      }
    }
  }
}

/** What the record keeps of an oversized fault's result: the model got all of it, the document need not (a MiB per call, in every copy). */
const OVERSIZED_KEPT_CHARS = 4096
function withoutPadding(result: string): BoundText {
  return cutText(result, OVERSIZED_KEPT_CHARS, (left) => `\n… [${wholeNumber(left)} more characters of the oversized fault's padding, not kept here]`)
}
