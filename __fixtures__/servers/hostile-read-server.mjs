#!/usr/bin/env node
// A hand-written 2025-11-25 stdio MCP server whose answers are hostile to the reader:
//   flood  writes FLOOD_MB megabytes (default 400) on one line with no newline, in 1 MB chunks
//          as the pipe drains (never built in memory), then waits
//   deep   answers with structuredContent nested DEPTH levels deep (default 100,000)
//   both   answers with both `result` and `error` (JSON-RPC 2.0 §5: exactly one of them)
//   echo   answers normally
// FLOOD_AT=initialize floods in reply to initialize instead (the server's very first answer).
import { createInterface } from 'node:readline'

const FLOOD_BYTES = Number(process.env.FLOOD_MB ?? 400) * 1024 * 1024
const DEPTH = Number(process.env.DEPTH ?? 100_000)
const FLOOD_AT = process.env.FLOOD_AT ?? 'tools/call'

const tools = ['echo', 'flood', 'deep', 'both'].map((name) => ({
  name,
  description: `The ${name} tool`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } }
}))
const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n')

/** FLOOD_BYTES of one line with no end: written as the reader takes it. */
function flood(id) {
  const chunk = Buffer.alloc(1024 * 1024, 'x')
  let written = 0
  process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"padding":"`)
  const more = () => {
    while (written < FLOOD_BYTES) {
      written += chunk.length
      if (!process.stdout.write(chunk)) return void process.stdout.once('drain', more)
    }
  }
  process.stdout.on('error', () => process.exit(0))
  more()
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return
  const msg = JSON.parse(line)
  if (msg.id === undefined) return
  if (msg.method === FLOOD_AT && (FLOOD_AT !== 'tools/call' || msg.params?.name === 'flood')) return flood(msg.id)
  switch (msg.method) {
    case 'initialize':
      return send({ id: msg.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'hostile-reads', version: '1.0.0' } } })
    case 'tools/list':
      return send({ id: msg.id, result: { tools } })
    case 'tools/call': {
      const { name, arguments: args } = msg.params
      if (name === 'deep') {
        // Written as text: building 100,000 levels as an object would overflow JSON.stringify here too.
        const nested = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH)
        return process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":{"content":[{"type":"text","text":"deep"}],"structuredContent":${nested}}}\n`)
      }
      if (name === 'both') return send({ id: msg.id, result: { content: [{ type: 'text', text: 'fine' }] }, error: { code: -32603, message: 'also broken' } })
      return send({ id: msg.id, result: { content: [{ type: 'text', text: `echo: ${args?.text ?? ''}` }] } })
    }
    case 'ping':
      return send({ id: msg.id, result: {} })
    default:
      return send({ id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } })
  }
})
