#!/usr/bin/env node
// A minimal modern (2026-07-28) stdio MCP server with no dependencies: it boots in a few
// milliseconds, so the benchmark measures the harness rather than a server's start-up.
import { createInterface } from 'node:readline'

const tool = {
  name: 'lookup',
  description: 'Look up a value by key',
  inputSchema: { type: 'object', properties: { key: { type: 'string', description: 'The key' } }, required: ['key'] }
}
const cache = { ttlMs: 0, cacheScope: 'public' }
const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n')

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return
  const msg = JSON.parse(line)
  if (msg.id === undefined) return
  switch (msg.method) {
    case 'server/discover':
      return send({ id: msg.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ...cache } })
    case 'tools/list':
      return send({ id: msg.id, result: { resultType: 'complete', tools: [tool], ...cache } })
    case 'tools/call':
      return send({ id: msg.id, result: { resultType: 'complete', content: [{ type: 'text', text: `value of ${msg.params.arguments?.key}` }] } })
    default:
      return send({ id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } })
  }
})
