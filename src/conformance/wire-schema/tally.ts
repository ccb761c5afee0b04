import { trimEvidence } from '../../util/text.js'
import type { SchemaRevision } from './schemas.js'
import { validateFrame } from './validate.js'

/**
 * The messages of one probe, or one session, checked against the schema and their problems
 * grouped by kind and place: a fault the server makes on every call is one group that counts its
 * frames, not one finding per frame. Bounded: at most MAX_FRAMES messages are checked (the rest
 * counted), at most MAX_GROUPS groups kept, each naming at most MAX_LABELS of its places.
 */

export const MAX_FRAMES = 500
export const MAX_GROUPS = 20
const MAX_LABELS = 5
const EVIDENCE_CHARS = 600

/** Where a message came from, for the findings: `tools/call get_weather`, `notifications/message`. */
export interface FrameSource {
  /** What answered it: the method of the request a response answers (checked against that method's result). */
  requestMethod?: string
  label: string
  /** The request, for the evidence. */
  request?: unknown
}

/** One kind of fault: a definition, a place (array indices as `*`) and a wording, with the frames that showed it. */
export interface SchemaGroup {
  def: string
  /** The place as first seen (`/content/0/type`), and how many distinct places (`/tools/3`, `/tools/7`) fell in the group. */
  path: string
  paths: number
  message: string
  /** The check that owns the rule, when it is not wire-schema-valid's to fail (validate.ts). */
  owner?: string
  frames: number
  labels: string[]
  /** Distinct labels beyond `labels`. */
  moreLabels: number
  evidence: { request: string; response: string }
}

export interface TallySummary {
  revision: SchemaRevision
  /** Messages checked, and how many of them against each revision's schema. */
  frames: number
  byRevision: Partial<Record<SchemaRevision, number>>
  /** Messages over MAX_FRAMES, not checked. */
  unchecked: number
  /** Messages with at least one problem that is wire-schema-valid's own. */
  invalid: number
  groups: SchemaGroup[]
  /** Groups over MAX_GROUPS, not kept. */
  droppedGroups: number
}

export class SchemaTally {
  private frames = 0
  private unchecked = 0
  private invalid = 0
  private dropped = 0
  private readonly byRevision: Partial<Record<SchemaRevision, number>> = {}
  private readonly groups = new Map<string, SchemaGroup & { places: Set<string>; allLabels: Set<string> }>()

  constructor(readonly revision: SchemaRevision) {}

  /** Check one message; false when over the cap (counted, not checked). */
  add(frame: unknown, source: FrameSource, revision: SchemaRevision = this.revision): boolean {
    if (this.frames >= MAX_FRAMES) {
      this.unchecked++
      return false
    }
    this.frames++
    this.byRevision[revision] = (this.byRevision[revision] ?? 0) + 1
    const { problems } = validateFrame(revision, frame, source.requestMethod)
    if (problems.some((p) => !p.owner)) this.invalid++
    const counted = new Set<string>()
    for (const problem of problems) {
      const place = problem.path
      const key = `${problem.def}\u0000${place.replace(/\/\d+(?=\/|$)/g, '/*')}\u0000${problem.message}`
      let group = this.groups.get(key)
      if (!group) {
        if (this.groups.size >= MAX_GROUPS) {
          this.dropped++
          continue
        }
        group = {
          def: problem.def,
          path: place,
          paths: 0,
          message: problem.message,
          ...(problem.owner ? { owner: problem.owner } : {}),
          frames: 0,
          labels: [],
          moreLabels: 0,
          evidence: { request: trimEvidence(source.request ?? '(none: the server sent it unasked)', EVIDENCE_CHARS), response: trimEvidence(frame, EVIDENCE_CHARS) },
          places: new Set(),
          allLabels: new Set()
        }
        this.groups.set(key, group)
      }
      group.places.add(place)
      // A frame counts once in a group, however many of its places fell in it.
      if (!counted.has(key)) {
        counted.add(key)
        group.frames++
        group.allLabels.add(source.label)
      }
    }
    return true
  }

  summary(): TallySummary {
    const groups = [...this.groups.values()].map(({ places, allLabels, ...group }): SchemaGroup => {
      const labels = [...allLabels]
      return { ...group, paths: places.size, labels: labels.slice(0, MAX_LABELS), moreLabels: Math.max(0, labels.length - MAX_LABELS) }
    })
    return { revision: this.revision, frames: this.frames, byRevision: { ...this.byRevision }, unchecked: this.unchecked, invalid: this.invalid, groups, droppedGroups: this.dropped }
  }
}

/** `CallToolResult /content/0/type: must be one of "text", …` (`/tools/*` when the group spans places). */
export function groupText(group: Pick<SchemaGroup, 'def' | 'path' | 'paths' | 'message'>): string {
  const path = group.paths > 1 ? group.path.replace(/\/\d+(?=\/|$)/g, '/*') : group.path
  return `${group.def}${path ? ` ${path}` : ''}: ${group.message}`
}

/** `12 frames (tools/call get_weather, tools/list, and 2 more)`. */
export function framesText(frames: number, labels: string[], moreLabels: number): string {
  const named = labels.join(', ') + (moreLabels > 0 ? `, and ${moreLabels} more` : '')
  return `${frames} frame${frames === 1 ? '' : 's'}${named ? ` (${named})` : ''}`
}
