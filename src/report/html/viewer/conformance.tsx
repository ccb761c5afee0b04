import type { CheckResult, ConformanceSection, ExpectedFailureEntry } from '../../../results/conformance.js'
import { describeEntry } from '../../../conformance/expected-failures.js'
import { checkTally, skipGroups } from '../../conformance.js'
import { checkAnchor, count, LongText, ms, Section, Status } from './common.js'
import { useReport } from './context.js'
import { Fold } from './fold.js'
import { Evidence, Facts } from './section-parts.js'

/** A check's status as the report words it: the mark and the word together. */
const STATUS_WORDS: Record<CheckResult['status'], [status: string, label: string]> = {
  pass: ['passed', 'passed'],
  fail: ['failed', 'failed'],
  warn: ['warning', 'warning'],
  skip: ['skipped', 'skipped'],
  expected: ['expected', 'expected failure']
}

/** The official suite's scoring in words, as the report says it (src/report/conformance.ts). */
const SCORING: Record<NonNullable<CheckResult['official']>['scoring'], string> = { scored: 'scored', differs: 'scored differently', unscored: 'run, not scored', none: 'no check' }

const OUTCOME_STATUS: Record<ExpectedFailureEntry['outcome'], string> = { expected: 'expected', stale: 'stale', unknown: 'failed', 'not-run': 'not-run' }

/** How much of a message the summary line shows; the fold holds it whole. */
const SUMMARY_CHARS = 300

function CheckStatus({ check }: { check: CheckResult }) {
  const [status, label] = STATUS_WORDS[check.status] ?? ['neutral', check.status]
  return <Status status={status} label={label} />
}

function officialWords(check: CheckResult): string | null {
  const official = check.official
  if (!official) return null
  const scenarios = [...new Set(official.scenarios.map((s) => s.split(':')[0]))]
  const note = (official.scoring === 'differs' || official.scoring === 'unscored') && official.note ? `: ${official.note}` : ''
  return `${SCORING[official.scoring] ?? official.scoring}${scenarios.length ? ` (${scenarios.join(', ')})` : ''}${note}`
}

/**
 * One check as a fold whose id is its anchor (`#check-<id>`): the status, id and message in the
 * summary; the rule, the revision, the official suite's view, the methods and the evidence inside.
 * Open when it failed or warned, or when the address names it.
 */
function CheckDetails({ check, open }: { check: CheckResult; open: boolean }) {
  const { route } = useReport()
  const anchor = checkAnchor(check.id)
  const cutMessage = check.message.length > SUMMARY_CHARS
  return (
    <Fold
      id={anchor}
      class={`check check-${check.status}`}
      open={open || route === anchor}
      summary={
        <>
          <CheckStatus check={check} /> <code>{check.id}</code> <span class="muted">({check.severity === 'error' ? 'an error when it fails' : 'a warning when it fails'})</span> — {cutMessage ? `${check.message.slice(0, SUMMARY_CHARS)}…` : check.message}
        </>
      }
    >
      {() => (
        <>
          <Facts
            items={[
              ['Rule', check.spec],
              ['Revision', check.revision === 'both' ? '2025-11-25 and 2026-07-28' : check.revision],
              ['Official suite', officialWords(check)],
              ['Methods', check.methods && check.methods.length > 0 ? check.methods.join(', ') : null],
              ['Listed as', check.expected_entry ? <code>{check.expected_entry}</code> : null]
            ]}
          />
          {cutMessage && (
            <Evidence label="Message">
              <LongText text={check.message} label={`The whole message of ${check.id}`} />
            </Evidence>
          )}
          {check.evidence && (
            <>
              <Evidence label="Request">
                <LongText text={check.evidence.request} label={`Request that shows ${check.id}`} />
              </Evidence>
              <Evidence label="Response">
                <LongText text={check.evidence.response} label={`Response that shows ${check.id}`} />
              </Evidence>
            </>
          )}
        </>
      )}
    </Fold>
  )
}

/** The server that could not be reached: what the attempt got, in one place, instead of checks that never ran. */
function Unreachable({ section }: { section: ConformanceSection }) {
  const u = section.unreachable
  return (
    <div class="unreachable" id="conformance-unreachable">
      <p>
        <Status status="failed" label="server unreachable" /> The server could not be started or reached over {section.transport}: no conformance check could run.
      </p>
      <Facts
        items={[
          ['Error', section.error],
          ['HTTP status', u?.http_status !== null && u?.http_status !== undefined ? <code>{String(u.http_status)}</code> : null],
          ['Cause', u?.cause ? <code>{u.cause}</code> : null]
        ]}
      />
      {u?.body && (
        <Evidence label="Response body">
          <LongText text={u.body} label="Response body" />
        </Evidence>
      )}
      {u?.stderr && (
        <Evidence label="Server stderr (last lines)">
          <LongText text={u.stderr} label="Server stderr" />
        </Evidence>
      )}
      {u?.stdout && (
        <Evidence label="Server stdout, not JSON-RPC (a server started in HTTP mode, or logging to stdout?)">
          <LongText text={u.stdout} label="Server stdout" />
        </Evidence>
      )}
    </div>
  )
}

/** The expected-failures file: each entry with its place and what became of it; a stale or unknown one fails the gate. */
function ExpectedFailures({ section }: { section: ConformanceSection }) {
  const file = section.expected_failures
  const expected = section.checks.filter((c) => c.status === 'expected')
  if (!file && expected.length === 0) return null
  const blocking = (file?.entries ?? []).some((e) => e.outcome === 'stale' || e.outcome === 'unknown')
  return (
    <div class="subsection">
      <h3>
        Expected failures{file ? ' — ' : ''}
        {file && <code>{file.file}</code>}
      </h3>
      {file && (
        <>
          <p>
            {blocking
              ? 'A stale or unknown entry fails the conformance gate: remove it from the file (or correct its id).'
              : 'A listed check that fails is reported as expected, not failed; one that passes again is a stale entry and fails the gate.'}
          </p>
          <ul class="entries">
            {file.entries.map((entry) => (
              <li key={`${entry.line}-${entry.entry}`}>
                <Status status={OUTCOME_STATUS[entry.outcome] ?? 'neutral'} label={entry.outcome} /> <code>{entry.entry}</code>{' '}
                <span class="muted">
                  ({file.file}:{entry.line})
                </span>{' '}
                — {describeEntry(entry, section.checks)}
              </li>
            ))}
          </ul>
        </>
      )}
      {expected.map((check) => (
        <CheckDetails key={check.id} check={check} open={false} />
      ))}
    </div>
  )
}

/**
 * Protocol conformance: the era, version, transport and server, the tally and the gate; every
 * failure and warning open with its evidence; the expected failures; the passed checks and the
 * skipped ones (by reason) folded; a legacy server's steps to 2026-07-28; or, when the server could
 * not be reached, what the attempt got.
 */
export function Conformance() {
  const { doc } = useReport()
  const section = doc.conformance
  if (!section) return null
  if (section.era === 'unreachable') {
    return (
      <Section id="conformance" title="Protocol conformance">
        <Unreachable section={section} />
      </Section>
    )
  }
  // Failures before warnings, each in the order the checks ran.
  const findings = [...section.checks.filter((c) => c.status === 'fail'), ...section.checks.filter((c) => c.status === 'warn')]
  const passed = section.checks.filter((c) => c.status === 'pass')
  const groups = skipGroups(section)
  const byId = new Map(section.checks.map((c) => [c.id, c]))
  return (
    <Section id="conformance" title="Protocol conformance">
      <p class="section-verdict">
        <Status status={section.passed ? 'passed' : 'failed'} /> {checkTally(section)} · gate: fail on {section.fail_on}
      </p>
      <Facts
        items={[
          ['Era', section.era === 'modern' ? 'modern server' : 'legacy server'],
          ['Negotiated version', section.negotiated_version ?? 'no handshake'],
          ['Transport', section.transport],
          ['Server', section.server_info ? `${section.server_info.name} ${section.server_info.version}`.trim() : null],
          ['Time', ms(section.duration_ms)],
          ['Gate', `fail on ${section.fail_on}: ${section.passed ? 'passed' : 'failed'}`]
        ]}
      />
      {section.error && (
        <p>
          <Status status="failed" label="not probed" /> The server could not be probed: {section.error}
        </p>
      )}
      {findings.length > 0 && (
        <div class="subsection">
          <h3>Failures and warnings ({findings.length})</h3>
          {findings.map((check) => (
            <CheckDetails key={check.id} check={check} open={true} />
          ))}
        </div>
      )}
      <ExpectedFailures section={section} />
      {passed.length > 0 && (
        <div class="subsection">
          <h3>Passed ({passed.length})</h3>
          {passed.map((check) => (
            <CheckDetails key={check.id} check={check} open={false} />
          ))}
        </div>
      )}
      {groups.length > 0 && (
        <div class="subsection">
          <h3>Skipped ({count(groups.reduce((n, g) => n + g.ids.length, 0), 'check')})</h3>
          {groups.map((group) => (
            <div key={group.reason} class="skip-group">
              <p>
                <Status status="skipped" label={`${group.ids.length} skipped`} /> {group.reason}
              </p>
              {group.ids.map((id) => {
                const check = byId.get(id)
                return check ? <CheckDetails key={id} check={check} open={false} /> : null
              })}
            </div>
          ))}
        </div>
      )}
      {section.migration.length > 0 && (
        <div class="subsection">
          <h3>Migrating to MCP 2026-07-28</h3>
          <ol>
            {section.migration.map((step, i) => (
              <li key={i}>{step}</li>
            ))}
          </ol>
        </div>
      )}
    </Section>
  )
}
