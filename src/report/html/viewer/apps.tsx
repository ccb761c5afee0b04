import { APP_FINDING_IDS, type AppFinding, type AppRender, type AppsSection } from '../../../results/apps.js'
import { appRendersOf, byStanding, placeWords, renderAnchor, renderStanding, renderVerdictWords, type PlacedRender, type RenderStanding } from '../../app-findings.js'
import { appsVerdict } from '../../apps.js'
import { count, JsonText, LongText, ms, percent, runAnchor, Section, Status } from './common.js'
import { useReport } from './context.js'
import { Fold } from './fold.js'
import { Picture } from './screenshot.js'
import { Evidence, Facts, oneLine } from './section-parts.js'
import { toolTestAnchor } from './tool-tests.js'

/** A standing as the Status mark and word say it: ✗ failed, ⚠ for review, ⚠ warning, ✓ passed, » not rendered. */
const STANDING_STATUS: Record<RenderStanding, [status: string, label: string]> = {
  failed: ['failed', 'failed'],
  review: ['warning', 'for review'],
  warning: ['warning', 'warning'],
  passed: ['passed', 'passed'],
  'not-done': ['skipped', 'not rendered']
}

const FINDING_STATUS: Record<AppFinding['status'], [string, string]> = {
  failed: ['failed', 'failed'],
  review: ['warning', 'review'],
  warning: ['warning', 'warning'],
  passed: ['passed', 'passed'],
  skipped: ['skipped', 'skipped']
}
const FINDING_ORDER: AppFinding['status'][] = ['failed', 'review', 'warning', 'skipped', 'passed']

/** Where the render was made, as a link to it: the run's page, or the tool test's fold. */
function PlaceLink({ placed }: { placed: PlacedRender }) {
  const { place } = placed
  const href = place.kind === 'run' ? `#${runAnchor(place.run)}` : `#${toolTestAnchor(place.test.id)}`
  return <a href={href}>{placeWords(place)}</a>
}

function Findings({ render }: { render: AppRender }) {
  if (render.findings.length === 0) return null
  const findings = [...render.findings].sort((a, b) => FINDING_ORDER.indexOf(a.status) - FINDING_ORDER.indexOf(b.status))
  return (
    <div class="app-findings">
      <h4>Findings</h4>
      <ul>
        {findings.map((f) => {
          const [status, label] = FINDING_STATUS[f.status] ?? ['neutral', f.status]
          return (
            <li key={f.id} class={`app-finding finding-${f.status}`}>
              <Status status={status} label={label} /> <code>{f.id}</code> — {f.message}
              {f.evidence.length > 0 && f.status !== 'passed' && (
                <Evidence label={`Evidence (${count(f.evidence.length, 'line')})`}>
                  <LongText text={f.evidence.join('\n')} label={`Evidence of ${f.id}`} />
                </Evidence>
              )}
            </li>
          )
        })}
      </ul>
    </div>
  )
}

function AppTest({ render }: { render: AppRender }) {
  if (render.actions.length === 0 && render.assertions.length === 0) return null
  return (
    <div class="app-test">
      {render.actions.length > 0 && (
        <>
          <h4>Actions</h4>
          <ul>
            {render.actions.map((a, i) => (
              <li key={i}>
                <Status status={a.passed ? 'passed' : 'failed'} /> {a.action} <code>{a.selector}</code>
                {a.action === 'fill' && a.value !== undefined && (
                  <>
                    {' '}
                    with <code>{a.value}</code>
                  </>
                )}
                {a.error && <> — {a.error}</>}
              </li>
            ))}
          </ul>
        </>
      )}
      {render.assertions.length > 0 && (
        <>
          <h4>Assertions</h4>
          <ul>
            {render.assertions.map((a, i) => (
              <li key={i}>
                <Status status={a.passed ? 'passed' : 'failed'} /> <code>{a.check}</code>
                {a.target && (
                  <>
                    {' '}
                    <code>{a.target}</code>
                  </>
                )}
                {a.score !== undefined && a.score !== null && ` · judge ${a.score}/10`} — {a.reason}
                {!a.passed && (
                  <div class="expected-actual">
                    <Evidence label="Expected">
                      <JsonText value={a.expected} label={`Expected by ${a.check}`} />
                    </Evidence>
                    <Evidence label="Actual">
                      <JsonText value={a.actual} label={`Actual for ${a.check}`} />
                    </Evidence>
                  </div>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}

/** What the view asked of the host: its tool calls, resource reads and other requests; the URLs its CSP blocked; its console errors. */
function ViewRequests({ render }: { render: AppRender }) {
  const { tool_calls: calls, resource_reads: reads, host_requests: requests } = render
  return (
    <div class="app-requests">
      {calls.length > 0 && (
        <>
          <h4>Tool calls from the view</h4>
          <ul>
            {calls.map((c, i) => (
              <li key={i}>
                <Status status={c.refused === null && !c.is_error ? 'passed' : 'failed'} /> <code>{c.name}</code> <code>{oneLine(c.args)}</code> —{' '}
                {c.refused !== null ? `refused: ${c.refused}` : c.is_error ? `error: ${c.result}` : `answered in ${ms(c.latency_ms)}`}
              </li>
            ))}
          </ul>
        </>
      )}
      {reads.length > 0 && (
        <>
          <h4>Resources read by the view</h4>
          <ul>
            {reads.map((r, i) => (
              <li key={i}>
                <Status status={r.error === null ? 'passed' : 'failed'} /> <code>{r.uri}</code>
                {r.error && <> — {r.error}</>}
              </li>
            ))}
          </ul>
        </>
      )}
      {requests.length > 0 && (
        <>
          <h4>Other requests to the host</h4>
          <p class="muted">Recorded and answered as a host does; links never opened.</p>
          <ul>
            {requests.map((r, i) => (
              <li key={i}>
                <code>{r.method}</code> <code>{oneLine(r.params)}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {render.blocked_requests.length > 0 && (
        <Evidence label={`Blocked by the CSP (${render.blocked_requests.length})`}>
          <LongText text={render.blocked_requests.join('\n')} label="Requests blocked by the CSP" />
        </Evidence>
      )}
      {render.console_errors.length > 0 && (
        <Evidence label={`Console errors (${render.console_errors.length})`}>
          <LongText text={render.console_errors.join('\n')} label="Console errors" />
        </Evidence>
      )}
    </div>
  )
}

function VisualDiff({ render }: { render: AppRender }) {
  const diff = render.visual_diff
  if (!diff) return null
  if (!diff.changed) return <p>Screenshot unchanged since the baseline ({percent(diff.changed_ratio)} of the pixels differ).</p>
  return (
    <div class="visual-diff">
      <p>
        <Status status="warning" label="screenshot changed" /> since the baseline: {percent(diff.changed_ratio)} of the pixels differ.
      </p>
      <div class="pictures">
        <Picture path={diff.baseline} alt={`the baseline's screenshot of ${render.id}`} />
        {diff.diff && <Picture path={diff.diff} alt={`the pixels that differ in ${render.id}`} />}
      </div>
    </div>
  )
}

/** "connect none; resources none", or that none was declared (the default: no network). */
function cspWords(render: AppRender): string {
  const csp = render.csp
  if (csp === null) return 'none declared (the default: no network)'
  const list = (domains: string[]) => (domains.length === 0 ? 'none' : domains.join(', '))
  return `connect ${list(csp.connect_domains)}; resources ${list(csp.resource_domains)}`
}

/** One render as a fold at `#app-<id>`: open when it failed or is for review (or the address names it). */
function RenderDetails({ placed }: { placed: PlacedRender }) {
  const { route } = useReport()
  const { render } = placed
  const anchor = renderAnchor(render)
  const standing = renderStanding(render)
  const [status, label] = STANDING_STATUS[standing]
  return (
    <Fold
      id={anchor}
      class={`app-render standing-${standing}`}
      open={standing === 'failed' || standing === 'review' || route === anchor}
      summary={
        <>
          <Status status={status} label={label} /> <code>{render.tool}</code> · {placeWords(placed.place)}
          {standing !== 'passed' && <> — {renderVerdictWords(render)}</>}
        </>
      }
    >
      {() => (
        <>
          <Facts
            items={[
              ['Where', <PlaceLink placed={placed} />],
              ['Render', <code>{render.id}</code>],
              ['Resource', <code>{render.resource_uri}</code>],
              ['Viewport', `${render.viewport.width}×${render.viewport.height}`],
              ['Initialized', render.initialized_ms === null ? 'never initialized' : `in ${ms(render.initialized_ms)}`],
              ['Time', `${ms(render.duration_ms)} in all`],
              ['CSP', cspWords(render)]
            ]}
          />
          {render.status !== 'rendered' && (
            <p>
              <Status status={render.status === 'error' ? 'failed' : 'skipped'} label={render.status === 'error' ? 'not rendered' : render.status} /> {render.reason ?? 'no reason recorded'}
            </p>
          )}
          {render.screenshot !== null && <Picture path={render.screenshot} alt={`screenshot of ${render.tool} (${render.id})`} />}
          <VisualDiff render={render} />
          <Findings render={render} />
          <AppTest render={render} />
          <ViewRequests render={render} />
        </>
      )}
    </Fold>
  )
}

function FindingCounts({ section }: { section: AppsSection }) {
  const ids = APP_FINDING_IDS.filter((id) => section.findings[id] && Object.values(section.findings[id]!).some((n) => (n ?? 0) > 0))
  if (ids.length === 0) return null
  const statuses: AppFinding['status'][] = ['failed', 'review', 'warning', 'passed', 'skipped']
  return (
    <table class="app-findings-table">
      <caption class="muted">Findings by id, over every render.</caption>
      <thead>
        <tr>
          <th scope="col">Finding</th>
          {statuses.map((s) => (
            <th scope="col" key={s}>
              <Status status={FINDING_STATUS[s][0]} label={s} />
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ids.map((id) => (
          <tr key={id}>
            <th scope="row">
              <code>{id}</code>
            </th>
            {statuses.map((s) => (
              <td class="num" key={s}>
                {section.findings[id]![s] || '—'}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/**
 * MCP Apps: the browser the views were rendered in (or why none was), the findings counted, then
 * every render — tool tests' app steps and runs' calls — with its place, verdict, findings and
 * their evidence, an app test's actions and assertions, the view's requests, and its screenshot
 * inline (the baseline and the diff too when it changed).
 */
export function Apps() {
  const { doc } = useReport()
  const section = doc.apps
  if (!section) return null
  const placed = appRendersOf(doc)
  const renders = placed.map((p) => p.render)
  const verdict = appsVerdict(section, renders)
  const ordered = [...placed].sort((a, b) => byStanding(a.render, b.render))
  const looked = ordered.filter((p) => renderStanding(p.render) !== 'passed')
  const passing = ordered.filter((p) => renderStanding(p.render) === 'passed')
  const tone = section.status === 'skipped' ? 'warning' : verdict.startsWith('✗') ? 'failed' : verdict.startsWith('◐') ? 'warning' : 'passed'
  return (
    <Section id="apps" title="MCP Apps">
      <p class="section-verdict">
        <Status status={tone} label={verdict.replace(/^[✗◐✓⚠]\s*/, '')} />
      </p>
      {section.status === 'skipped' ? (
        <p>
          Not rendered: {(section.reason ?? 'the browser layer was skipped').replace(/\.$/, '')}. {count(renders.length, 'render')} asked for {renders.length === 1 ? 'was' : 'were'} not done: no app finding was checked, and none
          counts as passed.
        </p>
      ) : (
        <Facts
          items={[
            ['Browser', section.browser ? `${section.browser.version} (${section.browser.path}, ${section.browser.source === 'input' ? 'the chrome_path input' : section.browser.source === 'env' ? 'CHROME_PATH' : 'found by the search'})` : 'ran'],
            ['Renders', `${count(section.renders, 'render')}, ${section.failed} failed`],
            ['Visual diff', `${section.visual_diff === 'fail' ? 'fails' : 'for review'} over ${percent(section.visual_threshold)} of the pixels`]
          ]}
        />
      )}
      <FindingCounts section={section} />
      {looked.length > 0 && (
        <div class="subsection">
          <h3>{section.status === 'skipped' ? 'Renders not done' : 'Renders to look at'} ({looked.length})</h3>
          {looked.map((p) => (
            <RenderDetails key={p.render.id} placed={p} />
          ))}
        </div>
      )}
      {passing.length > 0 && (
        <div class="subsection">
          <h3>Passed ({passing.length})</h3>
          {passing.map((p) => (
            <RenderDetails key={p.render.id} placed={p} />
          ))}
        </div>
      )}
    </Section>
  )
}
