#!/usr/bin/env node
// A server for "what the model sees" (issue 15): huge results, images and audio, MCP Apps
// resources, a stateful pair that keeps its facts on disk, and a failure reported as plain text.
// Built on @modelcontextprotocol/server 2.4.0, over stdio.
//   read_log {size?}        → one text block of exactly `size` characters (default 300,000): it
//                             starts `LOG-HEAD`, ends `LOG-TAIL` (see logText).
//   screenshot {kind?}      → a text block and a 2×2 PNG image block; kind 'svg' adds an
//                             image/svg+xml block.
//   record_audio {}         → a text block and a tiny audio/wav block.
//   search_libraries {query} → isError false; query 'fail': "Error searching libraries: upstream
//                             timed out", else a normal answer.
//   show_dashboard {}       → an MCP Apps tool: `_meta.ui.resourceUri` ui://dashboard/view.html.
//   refresh_dashboard {}    → app-only: `_meta.ui` with `visibility: ['app']` (the host keeps it from the model).
//   show_chart {}           → links ui://chart/view.html with the deprecated `_meta['ui/resourceUri']`;
//                             that resource is not listed.
//   resource ui://dashboard/view.html (text/html;profile=mcp-app, a few KB of HTML)
//   resource notes://readme (text/plain): an ordinary resource, offered to the model.
//   remember {fact} / recall {} → facts kept in the JSON file STATE_FILE; recall returns every stored fact.
// STATE_FILE=/path is required: as a KEY=VALUE command-line argument (preferred: our reports treat
// a server's env values as secrets) or in the environment; without it the server refuses to start.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import * as z from 'zod'

/** read_log's size when none is asked for. */
export const DEFAULT_LOG_SIZE = 300_000

/** A real 2×2 RGB PNG (75 bytes). */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4zwAE/0Ho/38GAB7vBPzpVsU+AAAAAElFTkSuQmCC'

/** A small SVG image, base64. */
export const SVG_BASE64 = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"><rect width="2" height="2" fill="red"/></svg>').toString('base64')

/** A tiny WAV: 16 samples of 8-bit mono silence at 8 kHz (60 bytes). */
export const WAV_BASE64 = wav(16).toString('base64')

/** What search_libraries answers to the query 'fail', with isError false. */
export const SEARCH_FAILURE = 'Error searching libraries: upstream timed out'

export const DASHBOARD_URI = 'ui://dashboard/view.html'
export const CHART_URI = 'ui://chart/view.html'
export const APP_MIME_TYPE = 'text/html;profile=mcp-app'

/** The dashboard's HTML: a few KB, as an MCP Apps view is. */
export const DASHBOARD_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Dashboard</title><style>
${Array.from({ length: 60 }, (_, i) => `.widget-${i} { grid-column: ${(i % 4) + 1}; padding: ${i % 7}px; border: 1px solid #ccc; }`).join('\n')}
</style></head>
<body><main id="dashboard"><h1>Dashboard</h1></main>
<script type="module">/* the app talks to its host over postMessage */ window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/initialize', id: 1 }, '*')</script>
</body></html>
`

/** The text read_log answers with: exactly `size` characters, `LOG-HEAD` first and `LOG-TAIL` last (when it fits). */
export function logText(size = DEFAULT_LOG_SIZE) {
  const head = 'LOG-HEAD\n'
  const tail = 'LOG-TAIL'
  if (size <= head.length + tail.length) return (head + tail).slice(0, Math.max(0, size))
  const lines = []
  let length = 0
  const room = size - head.length - tail.length
  for (let n = 1; length < room; n++) {
    const line = `${String(n).padStart(6, '0')} INFO request served in ${(n * 7) % 100} ms\n`
    lines.push(line)
    length += line.length
  }
  return head + lines.join('').slice(0, room) + tail
}

/** A WAV file of `samples` 8-bit mono samples at 8 kHz. */
function wav(samples) {
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + samples, 4)
  header.write('WAVE', 8)
  header.write('fmt ', 12)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(1, 22) // mono
  header.writeUInt32LE(8000, 24)
  header.writeUInt32LE(8000, 28)
  header.writeUInt16LE(1, 32)
  header.writeUInt16LE(8, 34)
  header.write('data', 36)
  header.writeUInt32LE(samples, 40)
  return Buffer.concat([header, Buffer.alloc(samples, 128)])
}

const text = (value) => ({ type: 'text', text: value })

/** The facts in `stateFile` (none while it does not exist). */
function readFacts(stateFile) {
  if (!existsSync(stateFile)) return []
  const parsed = JSON.parse(readFileSync(stateFile, 'utf8'))
  return Array.isArray(parsed.facts) ? parsed.facts : []
}

/** One server per session; `stateFile` is where remember and recall keep their facts. */
export function createModelViewServer({ stateFile }) {
  const server = new McpServer({ name: 'model-view-fixture', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } })
  const readOnly = { readOnlyHint: true }

  server.registerTool(
    'read_log',
    {
      description: 'Read the service log.',
      annotations: readOnly,
      inputSchema: z.object({ size: z.number().int().min(0).optional().describe(`How many characters of log (default ${DEFAULT_LOG_SIZE})`) })
    },
    async ({ size }) => ({ content: [text(logText(size ?? DEFAULT_LOG_SIZE))] })
  )

  server.registerTool(
    'screenshot',
    {
      description: 'Take a screenshot of the dashboard.',
      annotations: readOnly,
      inputSchema: z.object({ kind: z.enum(['png', 'svg']).optional().describe("'svg' adds a vector image") })
    },
    async ({ kind }) => ({
      content: [
        text('Screenshot of the dashboard.'),
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
        ...(kind === 'svg' ? [{ type: 'image', data: SVG_BASE64, mimeType: 'image/svg+xml' }] : [])
      ]
    })
  )

  server.registerTool('record_audio', { description: 'Record a short audio clip.', annotations: readOnly, inputSchema: z.object({}) }, async () => ({
    content: [text('Recorded 2 ms of audio.'), { type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }]
  }))

  server.registerTool(
    'search_libraries',
    { description: 'Search the library index.', annotations: readOnly, inputSchema: z.object({ query: z.string().describe('What to search for') }) },
    async ({ query }) => ({ content: [text(query === 'fail' ? SEARCH_FAILURE : `Found 2 libraries for "${query}": ${query}-core, ${query}-extras`)] })
  )

  server.registerTool(
    'show_dashboard',
    { description: 'Show the dashboard to the user.', annotations: readOnly, inputSchema: z.object({}), _meta: { ui: { resourceUri: DASHBOARD_URI } } },
    async () => ({ content: [text('Dashboard shown: 3 widgets, all green.')] })
  )

  server.registerTool(
    'refresh_dashboard',
    { description: "Refresh the dashboard's data (called by the app).", inputSchema: z.object({}), _meta: { ui: { resourceUri: DASHBOARD_URI, visibility: ['app'] } } },
    async () => ({ content: [text('Dashboard refreshed.')] })
  )

  server.registerTool(
    'show_chart',
    { description: 'Show a chart to the user.', annotations: readOnly, inputSchema: z.object({}), _meta: { 'ui/resourceUri': CHART_URI } },
    async () => ({ content: [text('Chart shown.')] })
  )

  server.registerResource('dashboard-view', DASHBOARD_URI, { description: "The dashboard's view (MCP Apps).", mimeType: APP_MIME_TYPE }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: APP_MIME_TYPE, text: DASHBOARD_HTML }]
  }))

  server.registerResource('readme', 'notes://readme', { description: 'Notes about the dashboard.', mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'The dashboard shows request latency per service.' }]
  }))

  server.registerTool('remember', { description: 'Remember a fact for later.', inputSchema: z.object({ fact: z.string().describe('The fact') }) }, async ({ fact }) => {
    const facts = [...readFacts(stateFile), fact]
    writeFileSync(stateFile, JSON.stringify({ facts }))
    return { content: [text(`Remembered: ${fact} (${facts.length} stored in ${stateFile})`)] }
  })

  server.registerTool('recall', { description: 'Recall every fact remembered.', annotations: readOnly, inputSchema: z.object({}) }, async () => {
    const facts = readFacts(stateFile)
    return { content: [text(facts.length ? `Facts: ${facts.join(' | ')}` : 'Facts: none')] }
  })
  return server
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const settings = Object.fromEntries(process.argv.slice(2).flatMap((arg) => (arg.includes('=') ? [[arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]] : [])))
  const stateFile = settings.STATE_FILE || process.env.STATE_FILE
  if (!stateFile) {
    process.stderr.write('model-view-fixture: STATE_FILE is required (STATE_FILE=/path/state.json)\n')
    process.exit(1)
  }
  serveStdio(() => createModelViewServer({ stateFile }))
}
