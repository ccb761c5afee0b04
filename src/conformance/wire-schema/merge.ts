import type { ObservedSource } from '../observed.js'
import { LEGACY_VERSION, MODERN_VERSION, type CheckResult } from '../types.js'
import { WIRE_SCHEMA_VALID } from '../checks/wire-schema.js'
import { wireSchemaResult, type CheckedPart, type FaultGroup } from './verdict.js'

/** `[list-cache-fields] ListToolsResult: …`: a finding whose rule another check owns (session-frames.ts). */
const OWNED = /^\[([a-z0-9-]+)\] /

/**
 * The probe's wire-schema-valid with what the tool tests and runs saw (their observed findings
 * of the check, and how many messages they checked): one check, as the report lists every other.
 * The probe's verdict stands as it is when the sessions checked nothing; otherwise their faults
 * come first (each once, with its frames summed and where it was seen), then what the probe found.
 */
export function withSessionWireSchema(checks: CheckResult[], sources: ObservedSource[], era: 'modern' | 'legacy'): CheckResult[] {
  const at = checks.findIndex((c) => c.id === WIRE_SCHEMA_VALID.id)
  if (at < 0) return checks
  // A document built again (report --from, merge of shards) joins the sessions once: from the probes' own verdict.
  const probe = probeOwnVerdict(checks[at])
  const part = sessionPart(sources, era === 'modern' ? MODERN_VERSION : LEGACY_VERSION)
  if (part.frames === 0) return checks.map((c, i) => (i === at ? probe : c))
  const sessions = wireSchemaResult({ ...WIRE_SCHEMA_VALID, severity: probe.severity }, [part], 'probe')
  const probeSaid = probe.status === 'skip' ? '' : `; the probes: ${probe.message}`
  const sessionFailed = sessions.status === 'fail' || sessions.status === 'warn'
  const probeFailed = probe.status === 'fail' || probe.status === 'warn'
  const merged: CheckResult = {
    ...probe,
    status: sessionFailed ? sessions.status : probe.status === 'skip' ? sessions.status : probe.status,
    message: `the tool tests and runs: ${sessions.message}${probeSaid}`,
    ...(probeFailed ? {} : sessions.evidence ? { evidence: sessions.evidence } : {}),
    probe_verdict: { status: probe.status, message: probe.message, ...(probe.evidence ? { evidence: probe.evidence } : {}) }
  }
  return checks.map((c, i) => (i === at ? merged : c))
}

/** wire-schema-valid as the probes alone left it (the sessions' part taken out); any other check as it is. */
export function probeOwnVerdict(check: CheckResult): CheckResult {
  const { probe_verdict: own, evidence, ...rest } = check
  if (!own) return check
  void evidence
  return { ...rest, status: own.status, message: own.message, ...(own.evidence ? { evidence: own.evidence } : {}) }
}

/** The sessions' findings as one part: groups by text, each place `tools/call get_weather in tool test weather`. */
function sessionPart(sources: ObservedSource[], revision: string): CheckedPart {
  let frames = 0
  const groups: FaultGroup[] = []
  for (const source of sources) {
    frames += Number(source.observed?.frames) || 0
    for (const finding of source.observed?.findings ?? []) {
      if (finding?.check !== WIRE_SCHEMA_VALID.id) continue
      const message = String(finding.message)
      const owner = OWNED.exec(message)?.[1]
      groups.push({
        text: owner ? message.replace(OWNED, '') : message,
        ...(owner ? { owner } : {}),
        frames: Number(finding.frames) || 1,
        labels: [finding.tool ? `${finding.tool} in ${source.label}` : source.label],
        moreLabels: 0,
        evidence: finding.evidence
      })
    }
  }
  // Named by the probe's era: the sessions speak the era the probe found (each message was checked against its own request's revision).
  return { byRevision: { [revision]: frames }, frames, unchecked: 0, droppedGroups: 0, groups }
}
