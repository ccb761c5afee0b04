import { useEffect, useMemo, useState } from 'preact/hooks'
import type { HtmlReportData } from '../view-types.js'
import { ReportContext, type Report, type RunFilter } from './context.js'
import { Overview } from './overview.js'
import { Runs } from './runs.js'
import { RunPage } from './run-detail.js'
import { Conformance } from './conformance.js'
import { ToolTests } from './tool-tests.js'
import { Resilience } from './resilience.js'
import { Telemetry } from './telemetry.js'
import { Apps } from './apps.js'

const currentRoute = () => decodeURIComponent(location.hash.replace(/^#/, ''))

/** `run-17` → 17, and a part of its page (`run-17-call-2`, `run-17-timeline`) → 17; null for any other anchor. */
function runIndexOf(route: string): number | null {
  const m = /^run-(\d+)(?:-[a-z0-9-]+)?$/.exec(route)
  return m ? Number(m[1]) : null
}

/** The sections the page has for this document, in the order of the layers. */
function sectionLinks(data: HtmlReportData): [string, string][] {
  const { doc } = data
  const links: [string, string][] = [['overview', 'Overview']]
  if (doc.runs.length > 0) links.push(['runs', 'Runs'])
  if (doc.conformance) links.push(['conformance', 'Conformance'])
  if (doc.tool_tests) links.push(['tool-tests', 'Tool tests'])
  if (doc.summary.resilience || doc.runs.some((r) => r.security || r.recovery)) links.push(['resilience', 'Resilience'])
  if (doc.telemetry) links.push(['telemetry', 'Telemetry'])
  if (doc.apps) links.push(['apps', 'MCP Apps'])
  return links
}

export function App({ data }: { data: HtmlReportData }) {
  const [route, setRoute] = useState(currentRoute())
  const [filter, setFilter] = useState<RunFilter>({})
  useEffect(() => {
    const onHash = () => setRoute(currentRoute())
    addEventListener('hashchange', onHash)
    return () => removeEventListener('hashchange', onHash)
  }, [])
  // An anchor in the address is scrolled to once the page shows it (a run's page, a finding).
  useEffect(() => {
    if (!route) return
    const target = document.getElementById(route)
    if (target) {
      target.scrollIntoView({ block: 'start' })
      if (target instanceof HTMLElement && /^H[1-6]$/.test(target.tagName)) target.focus({ preventScroll: true })
    }
  }, [route])
  const report: Report = useMemo(
    () => ({
      doc: data.doc,
      view: data.view,
      filter,
      setFilter,
      route,
      go: (anchor: string) => {
        if (currentRoute() === anchor) setRoute(anchor)
        else location.hash = anchor
      }
    }),
    [data, filter, route]
  )
  const runIndex = runIndexOf(route)
  const run = runIndex === null ? undefined : data.doc.runs.find((r) => r.index === runIndex)
  const links = sectionLinks(data)
  return (
    <ReportContext.Provider value={report}>
      <a class="skip-link" href="#main">
        Skip to the report
      </a>
      <header class="page-header">
        <h1 class={`verdict verdict-${data.view.verdict_kind}`}>{data.view.title}</h1>
        <p class="headline">{data.view.headline}</p>
      </header>
      <nav aria-label="Sections" class="page-nav">
        <ul>
          {links.map(([id, name]) => (
            <li key={id}>
              <a href={`#${id}`}>{name}</a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {run ? (
          <RunPage run={run} />
        ) : (
          <>
            <Overview />
            {data.doc.runs.length > 0 && <Runs />}
            {data.doc.conformance && <Conformance />}
            {data.doc.tool_tests && <ToolTests />}
            {links.some(([id]) => id === 'resilience') && <Resilience />}
            {data.doc.telemetry && <Telemetry />}
            {data.doc.apps && <Apps />}
          </>
        )}
      </main>
      <footer class="page-footer">
        <p>
          {data.view.generator} · started {data.doc.started_at} · results document version {data.doc.version}
        </p>
      </footer>
    </ReportContext.Provider>
  )
}
