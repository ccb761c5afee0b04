#!/usr/bin/env node
// A hand-written 2025-11-25 (legacy) stdio MCP server whose every text tries to drive the Actions
// runner: workflow commands in its stderr, a tool name, a JSON-RPC error message, an isError text
// and a value. FAIL_AT_START=1 dies with it on stderr. TOOLS=N adds N more tools (one-word descriptions, so conformance lists them all).
import { createInterface } from 'node:readline'

// What the runner would take for commands: a line that starts with `::` (an annotation, a mask,
// muting the log), a `\r` that starts a new line, and the legacy `##[` anywhere in a line.
export const INJECT = ['::error file=x::pwned', '::add-mask::passed', '::stop-commands::tok', 'see\r::warning::x', 'in the ##[error]x middle'].join('\n')

const extra = Number(process.env.TOOLS ?? 0)
const object = { type: 'object', properties: { text: { type: 'string' } } }
const tools = [
  { name: 'echo', description: 'Echo the text back, as an error with hostile text', inputSchema: object, annotations: { readOnlyHint: true } },
  { name: 'rpcerr', description: 'Answer with a JSON-RPC error whose message is hostile', inputSchema: object, annotations: { readOnlyHint: true } },
  { name: 'value', description: 'Answer with a structured value holding hostile text', inputSchema: object, annotations: { readOnlyHint: true } },
  { name: 'die', description: 'Write hostile text to stderr and exit', inputSchema: object },
  // A tool name that breaks the naming rule, so conformance quotes it.
  { name: 'x##[error]name\r::warning::tool', description: 'A tool whose name carries commands', inputSchema: object },
  ...Array.from({ length: extra }, (_, i) => ({ name: `tool_${String(i).padStart(5, '0')}`, description: 'tool', inputSchema: object }))
]
const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n')

process.stderr.write(`starting\n${INJECT}\n`)
// FAIL_AT_START=1: it dies at once, its last words hostile (the log quotes a dying server's stderr).
if (process.env.FAIL_AT_START === '1') process.exit(7)

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return
  const msg = JSON.parse(line)
  if (msg.id === undefined) return
  switch (msg.method) {
    case 'initialize':
      return send({ id: msg.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'hostile-log', version: '1.0.0' } } })
    case 'tools/list':
      return send({ id: msg.id, result: { tools } })
    case 'tools/call': {
      const { name } = msg.params
      if (name === 'echo') return send({ id: msg.id, result: { content: [{ type: 'text', text: INJECT }], isError: true } })
      if (name === 'rpcerr') return send({ id: msg.id, error: { code: -32000, message: INJECT } })
      if (name === 'value') return send({ id: msg.id, result: { content: [{ type: 'text', text: JSON.stringify({ answer: INJECT }) }], structuredContent: { answer: INJECT } } })
      if (name === 'die') {
        process.stderr.write(`fatal error: ${INJECT}\n`)
        process.exit(1)
      }
      return send({ id: msg.id, result: { content: [{ type: 'text', text: INJECT }], isError: true } })
    }
    case 'ping':
      return send({ id: msg.id, result: {} })
    default:
      return send({ id: msg.id, error: { code: -32601, message: `Method not found: ${INJECT}` } })
  }
})
