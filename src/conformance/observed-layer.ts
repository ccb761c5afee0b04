import type { RunLayer } from '../execute/run-layer.js'
import type { McpSession } from '../mcp/session.js'
import type { ObservedCalls } from '../results/types.js'
import { watchSession, type WatchedSession } from './observe-session.js'
import { SessionFrames } from './wire-schema/session-frames.js'

/**
 * Observed conformance as a run layer, innermost: it checks what the server really answered
 * (the real answers behind a fault come to it through `observe`), and every message of the
 * session against the revision's schema (wire-schema-valid, through the session's frame sink).
 * Records `observed`; never fails a run.
 */
export const observedLayer: RunLayer = {
  name: 'observed conformance',
  prepare() {
    let watched: { raw: McpSession; watcher: WatchedSession } | null = null
    const frames = new SessionFrames()
    return {
      open: { serverFrames: frames.sink },
      wrap(session) {
        const watcher = watchSession(session)
        watched = { raw: session, watcher }
        return watcher.session
      },
      observe: (call) => void watched?.watcher.check(call),
      record({ redact }) {
        const seen = observedOf(watched, frames)
        return {
          fields: {
            observed: {
              calls: seen.calls,
              findings: seen.findings.map((f) => ({ ...f, tool: redact(f.tool), message: redact(f.message), evidence: { request: redact(f.evidence.request), response: redact(f.evidence.response) } })),
              ...(seen.asked !== undefined ? { asked: seen.asked } : {}),
              ...(seen.frames ? { frames: seen.frames } : {})
            }
          },
          passed: true
        }
      }
    }
  }
}

/** Conformance checked on the tool results this run saw, the session's own findings (read once the session is closed), and its messages against the schema. */
function observedOf(watched: { raw: McpSession; watcher: WatchedSession } | null, frames: SessionFrames): ObservedCalls {
  const checked = frames.take()
  const schema = { findings: checked.findings, ...(checked.frames ? { frames: checked.frames } : {}) }
  if (!watched) return { calls: 0, ...schema }
  const { raw: session, watcher } = watched
  const observed = watcher.observed()
  const outsideRounds = session.sessionRounds()
  // What the server asked outside any call (the roots at start) counts as one more call that asked.
  return {
    calls: observed.calls,
    findings: [...observed.findings, ...watcher.sessionFindings(), ...schema.findings],
    asked: (observed.asked ?? 0) + (outsideRounds.length > 0 ? 1 : 0),
    ...(schema.frames !== undefined ? { frames: schema.frames } : {})
  }
}
