#!/usr/bin/env node
// A raw MCP 2026-07-28 stdio server (newline-delimited JSON-RPC) whose tool answers break the
// rules the observed-conformance checks hold every real call to. `get_item` by `id`:
//   skillet → structuredContent {price: "39 USD"} (not a number: breaks its outputSchema, §8)
//   photo   → an image block whose data is not base64
//   missing → no structuredContent at all
//   pan     → a conforming answer
// Any other tool name → an isError result (should be JSON-RPC -32602, §5); bad arguments → -32602
// (should be an isError result, §5).
import { createInterface } from 'node:readline'

const VERSION = '2026-07-28'
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'observed-fixture', version: '1.0.0' } }
const TOOLS = [
  {
    name: 'get_item',
    description: 'Look an item up by its id.',
    inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'Item id' } }, required: ['id'] },
    outputSchema: { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] }
  }
]

const complete = (result) => ({ resultType: 'complete', ...result, _meta: SERVER_INFO })
const text = (value) => ({ type: 'text', text: value })

function handle(msg) {
  switch (msg.method) {
    case 'server/discover':
      return { result: complete({ supportedVersions: [VERSION], capabilities: { tools: {} }, ttlMs: 60000, cacheScope: 'public' }) }
    case 'tools/list':
      return { result: complete({ tools: TOOLS, ttlMs: 60000, cacheScope: 'public' }) }
    case 'tools/call': {
      const name = msg.params?.name
      const id = msg.params?.arguments?.id
      if (name !== 'get_item') return { result: complete({ content: [text(`Unknown tool: ${name}`)], isError: true }) }
      if (typeof id !== 'string') return { error: { code: -32602, message: 'id must be a string' } }
      switch (id) {
        case 'skillet':
          return { result: complete({ content: [text('Skillet: 39 USD')], structuredContent: { price: '39 USD' } }) }
        case 'photo':
          return { result: complete({ content: [text('Here it is'), { type: 'image', data: 'not base64!', mimeType: 'image/png' }], structuredContent: { price: 5 } }) }
        case 'missing':
          return { result: complete({ content: [text('No structure today')] }) }
        default:
          return { result: complete({ content: [text(`${id}: 12`)], structuredContent: { price: 12 } }) }
      }
    }
    default:
      return { error: { code: -32601, message: `Method not found: ${msg.method}` } }
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return
  let msg
  try {
    msg = JSON.parse(line)
  } catch {
    return
  }
  if (msg.id === undefined) return
  const { result, error } = handle(msg)
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, ...(error ? { error } : { result }) }) + '\n')
})
