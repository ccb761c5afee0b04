import type { ResultsDocument } from '../../results/types.js'
import { jsonForScript, reportCsp } from './embed.js'
import { VIEWER_CSS, VIEWER_JS } from './viewer-assets.generated.js'
import { deriveView, type ImageReader } from './view.js'
import type { HtmlReportData } from './view-types.js'

/** The id of the element that holds the embedded data; the page's script reads it. */
export const DATA_ELEMENT_ID = 'report-data'

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/**
 * The embedded data, `{ view, doc }`, as JSON for the data element, in pieces: the document
 * without its runs, then each run on its own, so a document of 10,000 runs is never one more
 * string of its whole size (the runs come last in the object; JSON.parse does not mind).
 */
function* dataChunks(data: HtmlReportData): Generator<string> {
  const { runs, ...rest } = data.doc
  const head = jsonForScript(rest)
  yield `{"view":${jsonForScript(data.view)},"doc":${head.slice(0, -1)}${head === '{}' ? '' : ','}"runs":[`
  for (let i = 0; i < runs.length; i++) yield `${i === 0 ? '' : ','}${jsonForScript(runs[i])}`
  yield ']}}'
}

/**
 * eval-report.html: one self-contained page (inline style and script, no network, opens from
 * file://) that shows the results document — the overview, every run with its timeline, each
 * layer's section and the pictures. The document is embedded as JSON and every string of it is
 * inserted as text by the page, never as HTML. Pure: the pictures come through `readImage`.
 * In pieces, for a writer that streams them to the file; renderHtmlReport joins them.
 */
export function* htmlReportChunks(doc: ResultsDocument, options: { readImage?: ImageReader } = {}): Generator<string> {
  const view = deriveView(doc, options.readImage)
  yield [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${reportCsp(VIEWER_JS, VIEWER_CSS)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<meta name="generator" content="${escapeText(view.generator)}">`,
    `<title>${escapeText(view.title)}</title>`,
    `<style>${VIEWER_CSS}</style>`,
    '</head>',
    '<body>',
    // What a reader sees before the script has run, or where scripts are off.
    `<noscript><h1>${escapeText(view.title)}</h1><p>${escapeText(view.headline)}</p><p>This report needs JavaScript; the same results are in eval-report.md and eval-results.json.</p></noscript>`,
    '<div id="app"></div>',
    `<script type="application/json" id="${DATA_ELEMENT_ID}">`
  ].join('\n')
  yield* dataChunks({ view, doc })
  yield ['</script>', `<script>${VIEWER_JS}</script>`, '</body>', '</html>', ''].join('\n')
}

/** The whole page as one string (htmlReportChunks joined). */
export function renderHtmlReport(doc: ResultsDocument, options: { readImage?: ImageReader } = {}): string {
  return [...htmlReportChunks(doc, options)].join('')
}
