import { render } from 'preact'
import { App } from './app.js'
import type { HtmlReportData } from '../view-types.js'

// The data is the element's text, parsed as JSON: nothing in it is ever read as HTML.
const element = document.getElementById('report-data')
const data = JSON.parse(element?.textContent ?? 'null') as HtmlReportData | null
const root = document.getElementById('app')
if (data && root) {
  render(<App data={data} />, root)
  // For tests and benchmarks: the page has rendered its first screen.
  document.documentElement.dataset.ready = 'true'
}
