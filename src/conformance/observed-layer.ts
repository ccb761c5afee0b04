import type { RunLayer } from '../execute/run-layer.js'
import type { McpSession } from '../mcp/session.js'
import type { ObservedCalls } from '../results/types.js'
import { watchSession, type WatchedSession } from './observe-session.js'

/**
 * Observed conformance as a run layer, innermost: it checks what the server really answered
 * (the real answers behind a fault come to it through `observe`). Records `observed`; never
 * fails a run.
 */
export const observedLayer: RunLayer = {
  name: 'observed conformance',
  prepare() {
    let watched: { raw: McpSession; watcher: WatchedSession } | null = null
    return {
      wrap(session) {
        const watcher = watchSession(session)
        watched = { raw: session, watcher }
        return watcher.session
      },
      observe: (call) => void watched?.watcher.check(call),
      record({ redact }) {
        const observed = watched ? observedOf(watched.raw, watched.watcher) : { calls: 0, findings: [] }
        return {
          fields: {
            observed: {
              calls: observed.calls,
              findings: observed.findings.map((f) => ({ ...f, message: redact(f.message), evidence: { request: redact(f.evidence.request), response: redact(f.evidence.response) } })),
              ...(observed.asked !== undefined ? { asked: observed.asked } : {})
            }
          },
          passed: true
        }
      }
    }
  }
}

/** Conformance checked on the tool results this run saw, and the session's own findings (read once the session is closed). */
function observedOf(session: McpSession, watcher: WatchedSession): ObservedCalls {
  const observed = watcher.observed()
  const outsideRounds = session.sessionRounds()
  // What the server asked outside any call (the roots at start) counts as one more call that asked.
  return { calls: observed.calls, findings: [...observed.findings, ...watcher.sessionFindings()], asked: (observed.asked ?? 0) + (outsideRounds.length > 0 ? 1 : 0) }
}
