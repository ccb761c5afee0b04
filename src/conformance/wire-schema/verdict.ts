import type { CheckSpec } from '../checks/common.js'
import type { CheckResult } from '../types.js'
import { framesText, groupText, type SchemaGroup, type TallySummary } from './tally.js'

/**
 * wire-schema-valid's one result, from what the probe checked and what the sessions of the tool
 * tests and runs checked (merged by src/aggregate/document.ts): each kind of fault once, with
 * how many frames showed it and where; the rules other checks own are named, not failed.
 */

/** One kind of fault as the verdict reads it: from a probe's tally, or from the observed findings of the sessions. */
export interface FaultGroup {
  /** `CallToolResult /content/0/type: must be one of …`. */
  text: string
  owner?: string
  frames: number
  labels: string[]
  moreLabels: number
  evidence: { request: string; response: string }
}

/** What one side checked: its revision, how many messages, and its faults. */
export interface CheckedPart {
  /** Messages checked against each revision's schema. */
  byRevision: Record<string, number>
  frames: number
  unchecked: number
  droppedGroups: number
  groups: FaultGroup[]
}

/** Faults shown in the message; the rest are counted. */
const SHOWN = 5

export function partOf(summary: TallySummary): CheckedPart {
  return {
    byRevision: summary.byRevision as Record<string, number>,
    frames: summary.frames,
    unchecked: summary.unchecked,
    droppedGroups: summary.droppedGroups,
    groups: summary.groups.map((g: SchemaGroup) => ({
      text: groupText(g),
      ...(g.owner ? { owner: g.owner } : {}),
      frames: g.frames,
      labels: g.labels,
      moreLabels: g.moreLabels,
      evidence: g.evidence
    }))
  }
}

/** The check from what was checked: `probe` alone, or the probe with the sessions' parts. */
export function wireSchemaResult(spec: CheckSpec, parts: (TallySummary | CheckedPart)[], scope: 'probe' | 'all'): CheckResult {
  const checked = parts.map((p) => ('invalid' in p ? partOf(p) : p))
  const frames = checked.reduce((n, p) => n + p.frames, 0)
  if (frames === 0) return { ...spec, status: 'skip', message: 'the server sent no JSON-RPC message to check' }
  const groups = mergeGroups(checked.flatMap((p) => p.groups))
  const own = groups.filter((g) => !g.owner)
  const owned = groups.filter((g) => g.owner)
  const revisions = revisionsText(checked)
  const unchecked = checked.reduce((n, p) => n + p.unchecked, 0)
  const dropped = checked.reduce((n, p) => n + p.droppedGroups, 0)
  const where = scope === 'all' && checked.length > 1 ? ' (the probes, the tool tests and the runs)' : ''
  const counted = `${frames} message${frames === 1 ? '' : 's'}${where} checked against ${revisions}${unchecked ? ` (${unchecked} more over the cap, not checked)` : ''}`
  const ownedNote = owned.length
    ? `; not failed here (their own checks score them): ${owned
        .slice(0, SHOWN)
        .map((g) => `${g.text} — ${framesText(g.frames, g.labels, g.moreLabels)} [${g.owner}]`)
        .join('; ')}${owned.length > SHOWN ? `; and ${owned.length - SHOWN} more` : ''}`
    : ''
  if (own.length === 0) return { ...spec, status: 'pass', message: `${frames} message${frames === 1 ? '' : 's'}${where} valid against ${revisions}${unchecked ? ` (${unchecked} more over the cap, not checked)` : ''}${ownedNote}` }
  const shown = own.slice(0, SHOWN).map((g) => `${g.text} — ${framesText(g.frames, g.labels, g.moreLabels)}`)
  const more = own.length - SHOWN + dropped
  return {
    ...spec,
    status: spec.severity === 'error' ? 'fail' : 'warn',
    message: `${shown.join('; ')}${more > 0 ? `; and ${more} more kind${more === 1 ? '' : 's'} of fault` : ''} (${counted})${ownedNote}`,
    evidence: own[0].evidence
  }
}

/** `the 2026-07-28 schema`, or `the 2026-07-28 schema (and 1 answer to a 2025-era request against 2025-11-25's)` when a dual-era server answered a request without a version as 2025-era. */
function revisionsText(parts: CheckedPart[]): string {
  const counts = new Map<string, number>()
  for (const part of parts) for (const [revision, n] of Object.entries(part.byRevision)) counts.set(revision, (counts.get(revision) ?? 0) + n)
  const [main, ...others] = [...counts].sort((a, b) => b[1] - a[1])
  const rest = others.map(([revision, n]) => `${n} answer${n === 1 ? '' : 's'} to a ${revision === '2025-11-25' ? '2025-era ' : ''}request against ${revision}'s`)
  return `the ${main[0]} schema${rest.length ? ` (and ${rest.join(', ')})` : ''}`
}

/** Groups of the same text from several parts are one: frames summed, places joined. */
function mergeGroups(groups: FaultGroup[]): FaultGroup[] {
  const merged = new Map<string, FaultGroup & { all: Set<string> }>()
  for (const group of groups) {
    const key = `${group.owner ?? ''}\u0000${group.text}`
    let into = merged.get(key)
    if (!into) {
      into = { ...group, labels: [], moreLabels: 0, frames: 0, all: new Set() }
      merged.set(key, into)
    }
    into.frames += group.frames
    for (const label of group.labels) into.all.add(label)
    into.moreLabels += group.moreLabels
  }
  return [...merged.values()]
    .map(({ all, ...group }) => ({ ...group, labels: [...all].slice(0, 3), moreLabels: group.moreLabels + Math.max(0, all.size - 3) }))
    .sort((a, b) => b.frames - a.frames)
}
