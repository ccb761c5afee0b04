import type { CheckResult, ConformanceReport, ExpectedFailureEntry, ExpectedFailures } from '../results/conformance.js'
import { nearest } from '../util/suggest.js'
import { OFFICIAL_SCENARIOS } from './official-scenarios.js'

// conformance_expected_failures applied to a conformance section, as the official suite's
// --expected-failures: a failing (or warning) check the file lists is `expected`, not gated; an
// entry whose check now passes is `stale`, and one that names no check is `unknown`: both fail the
// gate, so the file cannot rot. Pure, and idempotent: applying it again (a document built again
// from its journal or from shards) gives the same section.

/** What the application needs of a section (the report as the probes made it, or the document's section). */
export type WithExpectedFailures = Pick<ConformanceReport, 'checks' | 'era' | 'error'> & { expected_failures?: ExpectedFailures | null }

/** What a check's message says when an entry `id:method` lists some of its methods, not all. */
const NOT_EXCUSED = ' — not excused by the expected-failures file: '

const failing = (check: CheckResult) => check.status === 'fail' || check.status === 'warn'

/**
 * The section with the file's entries applied to its checks, and each entry's outcome. `known`:
 * more check ids that exist although the section does not hold them (the catalog's), so an entry
 * naming one is `not-run`, not `unknown`. A section without a file is returned as it is.
 */
export function applyExpectedFailures<T extends WithExpectedFailures>(section: T, known: Iterable<string> = []): T {
  const file = section.expected_failures
  if (!file) return section
  const checks = section.checks.map(unapplied)
  const applied = checks.map((check) => excuse(check, file.entries))
  const ids = new Set([...checks.map((c) => c.id), ...known])
  const entries = file.entries.map((entry): ExpectedFailureEntry => ({ ...entry, outcome: outcomeOf(entry, checks, ids, section) }))
  return { ...section, checks: applied, expected_failures: { file: file.file, entries } }
}

/** The entries that fail the gate: `stale` (the check passes now) and `unknown` (no check has the id). */
export function blockingEntries(section: { expected_failures?: ExpectedFailures | null }): ExpectedFailureEntry[] {
  return (section.expected_failures?.entries ?? []).filter((e) => e.outcome === 'stale' || e.outcome === 'unknown')
}

/** A check as the probes (or the observed calls) gave it: `expected` back to fail or warn, the method note gone. */
function unapplied(check: CheckResult): CheckResult {
  const cut = check.message.indexOf(NOT_EXCUSED)
  const message = cut === -1 ? check.message : check.message.slice(0, cut)
  if (check.status !== 'expected' && cut === -1) return check
  const { expected_entry: _entry, ...rest } = check
  return { ...rest, message, status: check.status === 'expected' ? (check.severity === 'error' ? 'fail' : 'warn') : check.status }
}

/** A failing check listed whole, or on every method it failed on, is `expected`; listed on some only, it says which it was not. */
function excuse(check: CheckResult, entries: ExpectedFailures['entries']): CheckResult {
  if (!failing(check)) return check
  const whole = entries.find((e) => e.check === check.id && e.method === null)
  if (whole) return { ...check, status: 'expected', expected_entry: whole.entry }
  const listed = entries.filter((e) => e.check === check.id && e.method !== null)
  if (listed.length === 0) return check
  const methods = check.methods ?? []
  const unlisted = methods.filter((m) => !listed.some((e) => e.method === m))
  if (methods.length > 0 && unlisted.length === 0) {
    const matched = methods.map((m) => listed.find((e) => e.method === m)!.entry)
    return { ...check, status: 'expected', expected_entry: [...new Set(matched)].join(', ') }
  }
  const lists = listed.map((e) => e.entry).join(', ')
  const why = methods.length === 0 ? `it lists ${lists}, and this check names no method it failed on (list \`${check.id}\` alone to expect it)` : `it lists ${lists}, and this check also failed on ${unlisted.join(', ')}`
  return { ...check, message: `${check.message}${NOT_EXCUSED}${why}` }
}

function outcomeOf(entry: ExpectedFailures['entries'][number], checks: CheckResult[], ids: ReadonlySet<string>, section: WithExpectedFailures): ExpectedFailureEntry['outcome'] {
  const results = checks.filter((c) => c.id === entry.check)
  if (results.length === 0) {
    // Nothing ran (an unreachable server, a probe that stopped), a check this run did not hold, or the official suite's scenario.
    const unrun = section.era === 'unreachable' || section.error !== null || ids.has(entry.check) || OFFICIAL_SCENARIOS.has(entry.check)
    return unrun ? 'not-run' : 'unknown'
  }
  const failed = results.filter(failing)
  const matched = entry.method === null ? failed.length > 0 : failed.some((c) => (c.methods ?? []).includes(entry.method!))
  if (matched) return 'expected'
  return results.every((c) => c.status === 'skip') ? 'not-run' : 'stale'
}

/**
 * What became of an entry, in words for the report: "failed as listed", "passed: remove the
 * entry", "did not fail on tools/call (it failed on resources/read): remove the entry", "no check
 * has this id; did you mean unknown-tool-error?". The checks are the section's (applied or not).
 */
export function describeEntry(entry: ExpectedFailureEntry, checks: CheckResult[]): string {
  const results = checks.filter((c) => c.id === entry.check)
  switch (entry.outcome) {
    case 'expected':
      return entry.method === null ? 'failed, as listed' : `failed on ${entry.method}, as listed`
    case 'stale': {
      const other = [...new Set(results.filter((c) => c.status !== 'pass' && c.status !== 'skip').flatMap((c) => c.methods ?? []))]
      if (entry.method !== null && other.length > 0) return `did not fail on ${entry.method} (it failed on ${other.join(', ')}): remove the entry`
      return `${entry.method === null ? 'passed' : `passed on ${entry.method}`}: remove the entry`
    }
    case 'not-run': {
      if (results.length > 0) return `not run: ${results[0].message}`
      if (OFFICIAL_SCENARIOS.has(entry.check)) return 'a scenario of the official suite, not a check of this tool: not run here'
      return 'not run'
    }
    case 'unknown': {
      const guess = nearest(entry.check, [...new Set(checks.map((c) => c.id))])
      return `no check has this id${guess ? `; did you mean ${guess}?` : ''} (an unknown entry fails the gate: it would excuse nothing)`
    }
  }
}

/** "1 expected failure, 1 stale entry": the file's tally, or '' without a file. */
export function entriesTally(section: { expected_failures?: ExpectedFailures | null }): string {
  const entries = section.expected_failures?.entries ?? []
  const n = (outcome: ExpectedFailureEntry['outcome']) => entries.filter((e) => e.outcome === outcome).length
  const say = (k: number, one: string, many: string) => (k === 0 ? '' : `${k} ${k === 1 ? one : many}`)
  return [say(n('stale'), 'stale entry', 'stale entries'), say(n('unknown'), 'unknown entry', 'unknown entries'), say(n('not-run'), 'entry not run', 'entries not run')].filter(Boolean).join(', ')
}
