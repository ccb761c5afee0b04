#!/usr/bin/env node
// A hand-written 2025-11-25 (legacy) stdio MCP server: initialize handshake, no server/discover.
import { createInterface } from 'node:readline'

const tools = [
  {
    name: 'add',
    description: 'Add two numbers',
    inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }
  }
]
const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n')
let initialized = false

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return
  const msg = JSON.parse(line)
  if (msg.id === undefined) return
  switch (msg.method) {
    case 'initialize':
      initialized = true
      return send({ id: msg.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'legacy-adder', version: '0.9.0' } } })
    case 'tools/list':
      if (!initialized) return send({ id: msg.id, error: { code: -32002, message: 'not initialized' } })
      return send({ id: msg.id, result: { tools } })
    case 'tools/call': {
      const { name, arguments: args } = msg.params
      if (name !== 'add') return send({ id: msg.id, result: { content: [{ type: 'text', text: `MCP error -32602: Tool ${name} not found` }], isError: true } })
      return send({ id: msg.id, result: { content: [{ type: 'text', text: String(args.a + args.b) }] } })
    }
    case 'ping':
      return send({ id: msg.id, result: {} })
    default:
      // Some legacy servers never answer what they do not know (SILENT_UNKNOWN=1).
      if (process.env.SILENT_UNKNOWN === '1') return
      return send({ id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } })
  }
})
