import type { ServerFrameSink } from '../../mcp/types.js'
import type { Observation } from '../../results/types.js'
import { isObject } from '../../util/objects.js'
import { labelOf, WIRE_SCHEMA_VALID } from '../checks/wire-schema.js'
import { OBSERVED_CONTENT_BLOCKS } from '../observed.js'
import { LEGACY_VERSION, META, MODERN_VERSION } from '../types.js'
import type { SchemaRevision } from './schemas.js'
import { groupText, MAX_FRAMES, SchemaTally } from './tally.js'

/** What one stretch of a session showed: how many messages were checked, and the faults as observations. */
export interface CheckedFrames {
  frames: number
  findings: Observation[]
}

/**
 * wire-schema-valid on a session of the tool tests or the runs: its `sink` (OpenOptions.serverFrames)
 * checks each message the server sends as it comes, and `take` hands over what was seen since the
 * last take (a tool test's step, a run), as observations: one per kind of fault and place, with
 * the number of frames (`frames`), the owner's rule marked `[owner]` (validate.ts; the merge names
 * it without failing). On a session, the content blocks of a tool result are observed-content-blocks'
 * too (it checks every tool result the session returns, base64 included), so they are marked as
 * its. At most MAX_FRAMES messages of the session are checked.
 */
export class SessionFrames {
  private tally = new SchemaTally(MODERN_VERSION)
  private checked = 0
  /** The revision of the last request we sent: a notification is the era's of the session. */
  private revision: SchemaRevision = MODERN_VERSION

  /** Messages not checked yet: each is checked a turn after it came, so the first message's compile never delays the session's own handling of it. */
  private pending: [Record<string, unknown>, Record<string, unknown> | undefined][] = []
  private draining: NodeJS.Immediate | undefined

  readonly sink: ServerFrameSink = (message, request) => {
    // The client's version negotiation (a session opened without the probe's era verdict) is the probe's to check, once.
    if (request?.method === 'server/discover') return
    if (this.checked + this.pending.length >= MAX_FRAMES) return
    this.pending.push([message, request])
    this.draining ??= setImmediate(() => this.drain())
  }

  private drain(): void {
    clearImmediate(this.draining)
    this.draining = undefined
    const pending = this.pending
    this.pending = []
    for (const [message, request] of pending) this.check(message, request)
  }

  private check(message: Record<string, unknown>, request: Record<string, unknown> | undefined): void {
    this.checked++
    if (request) this.revision = revisionOfRequest(request)
    const method = request && typeof request.method === 'string' ? request.method : undefined
    const label = method ? labelOf({ method, request: request! }) : typeof message.method === 'string' ? message.method : 'a response to no request of ours'
    this.tally.add(message, { label, request, ...(method ? { requestMethod: method } : {}) }, this.revision)
  }

  take(): CheckedFrames {
    this.drain()
    const summary = this.tally.summary()
    this.tally = new SchemaTally(MODERN_VERSION)
    const findings = summary.groups.map((group): Observation => {
      const owner = group.owner ?? (group.def === 'CallToolResult' && /^\/content(\/|$)/.test(group.path) ? OBSERVED_CONTENT_BLOCKS.id : undefined)
      return {
        check: WIRE_SCHEMA_VALID.id,
        severity: 'error',
        tool: group.labels[0] ?? '',
        message: `${owner ? `[${owner}] ` : ''}${groupText(group)}`,
        evidence: group.evidence,
        ...(group.frames > 1 ? { frames: group.frames } : {})
      }
    })
    return { frames: summary.frames, findings }
  }
}

/** A request with the 2026-07-28 version in its envelope is answered by that revision; one without (initialize, a legacy session's) by 2025-11-25. */
function revisionOfRequest(request: Record<string, unknown>): SchemaRevision {
  const params = isObject(request.params) ? request.params : {}
  const version = isObject(params._meta) ? params._meta[META.protocolVersion] : undefined
  return version === MODERN_VERSION || (version !== undefined && request.method !== 'initialize') ? MODERN_VERSION : LEGACY_VERSION
}
