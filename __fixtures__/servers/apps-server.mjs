#!/usr/bin/env node
// An MCP Apps server (issue 30) built on @modelcontextprotocol/server 2.4.0 and the server helpers
// of @modelcontextprotocol/ext-apps 2.0.4 (registerAppTool, registerAppResource). Over stdio, or
// Streamable HTTP on 127.0.0.1 (an ephemeral port) with --http or APPS_HTTP=1: the first line on
// stdout is then the URL (http://127.0.0.1:<port>/mcp), as the other HTTP fixtures print it.
//
// Each view is a ui:// resource (text/html;profile=mcp-app) whose one <script type="module"> holds
// the App SDK's self-contained browser bundle (app-with-deps.js, read once at start) and then the
// view's own code, which uses `App` from it. One tool per view:
//   show_list {title?, items?}  → ui://apps/good.html. CSP declared (connectDomains []). Renders the
//                                 result's structuredContent {title, items}: `#title` and one
//                                 `li.item` per item; `#new-item` + `#add` call the app-only tool
//                                 add_item through the host and show its text in `#status` (and
//                                 append the item as another `li.item`).
//   show_broken {}              → ui://apps/broken.html: connects, draws a heading, console.error,
//                                 then throws an uncaught error.
//   show_silent {}              → ui://apps/silent.html: draws text, never connects (no ui/initialize).
//   show_fetcher {}             → ui://apps/fetcher.html: connects, renders, then fetches
//                                 https://undeclared.example/data (its CSP declares only
//                                 https://api.declared.example); the outcome goes to `#status`.
//   show_blank {}               → ui://apps/blank.html: connects, draws nothing (a flat white page).
//   show_hidden_caller {}       → ui://apps/hidden-caller.html: connects, renders, calls the
//                                 model-only tool model_only_tool; `#status` says "refused: …" or
//                                 "allowed: …".
//   show_nocsp {title?, items?} → ui://apps/nocsp.html: the good view, its resource with no _meta.ui.csp.
//   add_item {item}             → app-only (visibility ["app"]): "Added <item>".
//   model_only_tool {}          → model-only (visibility ["model"]).
//   echo {text}                 → a plain tool, no UI.
// Every tool result carries a text block and structuredContent.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:http'
import { createMcpHandler, hostHeaderValidationResponse, localhostAllowedHostnames, localhostAllowedOrigins, McpServer, originValidationResponse } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { registerAppResource, registerAppTool, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server'
import * as z from 'zod'

export const GOOD_URI = 'ui://apps/good.html'
export const BROKEN_URI = 'ui://apps/broken.html'
export const SILENT_URI = 'ui://apps/silent.html'
export const FETCHER_URI = 'ui://apps/fetcher.html'
export const BLANK_URI = 'ui://apps/blank.html'
export const HIDDEN_CALLER_URI = 'ui://apps/hidden-caller.html'
export const NOCSP_URI = 'ui://apps/nocsp.html'
export { RESOURCE_MIME_TYPE }

/** show_list's title and items when the call gives none. */
export const DEFAULT_TITLE = 'Groceries'
export const DEFAULT_ITEMS = ['apples', 'bread', 'cheese']
/** What the broken view logs with console.error and throws. */
export const BROKEN_CONSOLE = 'broken view: about to fail'
export const BROKEN_ERROR = 'broken view: render failed'
/** The URL the fetcher view fetches, outside its CSP. */
export const UNDECLARED_URL = 'https://undeclared.example/data'
/** The one domain the fetcher view's CSP declares. */
export const DECLARED_DOMAIN = 'https://api.declared.example'

/**
 * The App SDK's browser bundle as statements of a module script: its closing
 * `export{a as B,…}` becomes `const B=a,…`, so code after it in the same script can use `App`.
 */
function appBundleScript() {
  const file = createRequire(import.meta.url).resolve('@modelcontextprotocol/ext-apps/app-with-deps')
  const source = readFileSync(file, 'utf8').trimEnd()
  const at = source.lastIndexOf('export{')
  const close = source.indexOf('}', at)
  if (at < 0 || close < 0 || source.slice(close + 1).replace(/;/g, '').trim() !== '') throw new Error(`apps-fixture: ${file} does not end in an export statement`)
  const bindings = source
    .slice(at + 'export{'.length, close)
    .split(',')
    .map((entry) => {
      const [local, exported = local] = entry.trim().split(/\s+as\s+/)
      return `${exported}=${local}`
    })
  // A closing `</script` inside the bundle would end the element early.
  return `${source.slice(0, at)}\nconst ${bindings.join(',')};`.replace(/<\/script/gi, '<\\/script')
}

const BUNDLE = appBundleScript()

const STYLE = `body{margin:0;padding:16px;font:16px/1.4 sans-serif;background:#fff;color:#111}h1{font-size:20px;margin:0 0 8px}#status{margin-top:8px;color:#064}`

/** A view's HTML: `body` as drawn before any script, then the bundle (when `sdk`) and `script` in one module script. */
function viewHtml({ title, body, script, sdk = true }) {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title><style>${STYLE}</style></head>
<body>${body}
<script type="module">
${sdk ? BUNDLE : ''}
${script}
</script>
</body></html>
`
}

/** The list view: renders {title, items} from the tool result; #add calls add_item through the host. */
const LIST_SCRIPT = `
const app = new App({ name: 'apps-fixture-list', version: '1.0.0' }, {})
const list = document.getElementById('items')
const status = document.getElementById('status')
const addItem = (text) => {
  const li = document.createElement('li')
  li.className = 'item'
  li.textContent = text
  list.appendChild(li)
}
app.ontoolresult = (params) => {
  const data = params.structuredContent ?? {}
  document.getElementById('title').textContent = String(data.title ?? '')
  list.replaceChildren()
  for (const item of Array.isArray(data.items) ? data.items : []) addItem(String(item))
}
document.getElementById('add').addEventListener('click', async () => {
  const item = document.getElementById('new-item').value
  status.textContent = 'adding…'
  try {
    const result = await app.callServerTool({ name: 'add_item', arguments: { item } })
    status.textContent = result.content?.find((c) => c.type === 'text')?.text ?? ''
    if (!result.isError) addItem(item)
  } catch (error) {
    status.textContent = 'failed: ' + (error?.message ?? String(error))
  }
})
await app.connect()
`

const LIST_BODY = `<main><h1 id="title"></h1><ul id="items"></ul>
<input id="new-item" type="text" placeholder="New item"> <button id="add" type="button">Add</button>
<p id="status"></p></main>`

const LIST_HTML = viewHtml({ title: 'List', body: LIST_BODY, script: LIST_SCRIPT })

const BROKEN_HTML = viewHtml({
  title: 'Broken',
  body: '<main><h1 id="title">Broken view</h1></main>',
  script: `
const app = new App({ name: 'apps-fixture-broken', version: '1.0.0' }, {})
await app.connect()
console.error(${JSON.stringify(BROKEN_CONSOLE)})
setTimeout(() => { throw new Error(${JSON.stringify(BROKEN_ERROR)}) }, 0)
`
})

const SILENT_HTML = viewHtml({
  title: 'Silent',
  body: '<main><h1 id="title">Silent view</h1><p>This view never talks to its host.</p></main>',
  script: `document.getElementById('title').dataset.drawn = 'yes'`,
  sdk: false
})

const FETCHER_HTML = viewHtml({
  title: 'Fetcher',
  body: '<main><h1 id="title">Fetcher view</h1><p id="status"></p></main>',
  script: `
const app = new App({ name: 'apps-fixture-fetcher', version: '1.0.0' }, {})
await app.connect()
const status = document.getElementById('status')
try {
  const response = await fetch(${JSON.stringify(UNDECLARED_URL)})
  status.textContent = 'fetched: HTTP ' + response.status
} catch (error) {
  status.textContent = 'fetch failed'
}
`
})

const BLANK_HTML = viewHtml({
  title: 'Blank',
  body: '',
  script: `
const app = new App({ name: 'apps-fixture-blank', version: '1.0.0' }, {})
await app.connect()
`
})

const HIDDEN_CALLER_HTML = viewHtml({
  title: 'Hidden caller',
  body: '<main><h1 id="title">Hidden caller view</h1><p id="status">calling model_only_tool…</p></main>',
  script: `
const app = new App({ name: 'apps-fixture-hidden-caller', version: '1.0.0' }, {})
await app.connect()
const status = document.getElementById('status')
try {
  const result = await app.callServerTool({ name: 'model_only_tool', arguments: {} })
  const text = result.content?.find((c) => c.type === 'text')?.text ?? ''
  status.textContent = (result.isError ? 'refused: ' : 'allowed: ') + text
} catch (error) {
  status.textContent = 'refused: ' + (error?.message ?? String(error))
}
`
})

const NO_NETWORK = { connectDomains: [], resourceDomains: [] }

/** The views: uri → its name, HTML and the `_meta.ui` of its resource (none for the no-CSP view). */
const VIEWS = [
  { uri: GOOD_URI, name: 'List view', html: LIST_HTML, ui: { csp: NO_NETWORK } },
  { uri: BROKEN_URI, name: 'Broken view', html: BROKEN_HTML, ui: { csp: NO_NETWORK } },
  { uri: SILENT_URI, name: 'Silent view', html: SILENT_HTML, ui: { csp: NO_NETWORK } },
  { uri: FETCHER_URI, name: 'Fetcher view', html: FETCHER_HTML, ui: { csp: { connectDomains: [DECLARED_DOMAIN], resourceDomains: [] } } },
  { uri: BLANK_URI, name: 'Blank view', html: BLANK_HTML, ui: { csp: NO_NETWORK } },
  { uri: HIDDEN_CALLER_URI, name: 'Hidden caller view', html: HIDDEN_CALLER_HTML, ui: { csp: NO_NETWORK } },
  { uri: NOCSP_URI, name: 'List view without CSP', html: LIST_HTML, ui: undefined }
]

/** A tool result: the text block and the same facts as structuredContent. */
const result = (text, structuredContent) => ({ content: [{ type: 'text', text }], structuredContent })

const listResult = ({ title, items }) => {
  const list = { title: title ?? DEFAULT_TITLE, items: items ?? DEFAULT_ITEMS }
  return result(`${list.title}: ${list.items.join(', ')}`, list)
}

const listInput = z.object({
  title: z.string().optional().describe(`The list's heading (default ${DEFAULT_TITLE})`),
  items: z.array(z.string()).optional().describe(`The list's items (default ${DEFAULT_ITEMS.join(', ')})`)
})

/** One server per session. */
export function createAppsServer() {
  const server = new McpServer({ name: 'apps-fixture', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } })
  const readOnly = { readOnlyHint: true }
  const none = z.object({})

  for (const view of VIEWS) {
    const meta = view.ui ? { _meta: { ui: view.ui } } : {}
    registerAppResource(server, view.name, view.uri, { description: `${view.name} (MCP Apps).`, ...meta }, async () => ({
      contents: [{ uri: view.uri, mimeType: RESOURCE_MIME_TYPE, text: view.html, ...meta }]
    }))
  }

  const appTool = (name, description, uri, inputSchema, cb) =>
    registerAppTool(server, name, { description, annotations: readOnly, inputSchema, _meta: { ui: { resourceUri: uri } } }, cb)

  appTool('show_list', 'Show a list to the user.', GOOD_URI, listInput, async (args) => listResult(args))
  appTool('show_nocsp', 'Show a list to the user (a view that declares no CSP).', NOCSP_URI, listInput, async (args) => listResult(args))
  appTool('show_broken', 'Show the broken view.', BROKEN_URI, none, async () => result('Broken view shown.', { view: 'broken' }))
  appTool('show_silent', 'Show the silent view.', SILENT_URI, none, async () => result('Silent view shown.', { view: 'silent' }))
  appTool('show_fetcher', 'Show the fetcher view.', FETCHER_URI, none, async () => result('Fetcher view shown.', { view: 'fetcher' }))
  appTool('show_blank', 'Show the blank view.', BLANK_URI, none, async () => result('Blank view shown.', { view: 'blank' }))
  appTool('show_hidden_caller', 'Show the view that calls a model-only tool.', HIDDEN_CALLER_URI, none, async () => result('Hidden caller view shown.', { view: 'hidden-caller' }))

  registerAppTool(
    server,
    'add_item',
    { description: 'Add an item to the list (called by the list view).', inputSchema: z.object({ item: z.string().describe('The item') }), _meta: { ui: { visibility: ['app'] } } },
    async ({ item }) => result(`Added ${item}`, { item, added: true })
  )
  registerAppTool(
    server,
    'model_only_tool',
    { description: 'A tool only the model may call.', annotations: readOnly, inputSchema: none, _meta: { ui: { visibility: ['model'] } } },
    async () => result('model-only answer', { answered: true })
  )
  server.registerTool('echo', { description: 'Echo the text back.', annotations: readOnly, inputSchema: z.object({ text: z.string().describe('The text') }) }, async ({ text }) =>
    result(text, { text })
  )
  return server
}

/** The server over Streamable HTTP on 127.0.0.1 (a free port); a foreign Host or Origin gets 403. */
export async function startAppsHttpServer() {
  const handler = createMcpHandler(createAppsServer)
  const http = createServer(async (req, res) => {
    const chunks = []
    for await (const c of req) chunks.push(c)
    const body = chunks.length ? Buffer.concat(chunks) : undefined
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body })
    const response =
      hostHeaderValidationResponse(request, localhostAllowedHostnames()) ?? originValidationResponse(request, localhostAllowedOrigins()) ?? (await handler.fetch(request))
    res.writeHead(response.status, Object.fromEntries(response.headers))
    try {
      if (response.body) for await (const chunk of response.body) res.write(chunk)
    } catch {
      // The client went away mid-answer.
    }
    res.end()
  })
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    close: async () => {
      await handler.close()
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--http') || process.env.APPS_HTTP === '1') {
    const { url } = await startAppsHttpServer()
    process.stdout.write(`${url}\n`)
  } else serveStdio(createAppsServer)
}
