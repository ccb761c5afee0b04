#!/usr/bin/env node
// A hand-written 2025-11-25 (legacy) stdio MCP server whose every text tries to drive the Actions
// runner: workflow commands in its stderr, a tool name, a JSON-RPC error message, an isError text
// and a value. FAIL_AT_START=1 dies with it on stderr. TOOLS=N adds N more tools (one-word descriptions, so conformance lists them all).
import { serveLegacyTools } from './legacy-lines.mjs'

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
process.stderr.write(`starting\n${INJECT}\n`)
// FAIL_AT_START=1: it dies at once, its last words hostile (the log quotes a dying server's stderr).
if (process.env.FAIL_AT_START === '1') process.exit(7)

const hostileText = (extra = {}) => ({ result: { content: [{ type: 'text', text: INJECT }], ...extra } })

serveLegacyTools({
  name: 'hostile-log',
  tools,
  call: (name) => {
    if (name === 'rpcerr') return { error: { code: -32000, message: INJECT } }
    if (name === 'value') return { result: { content: [{ type: 'text', text: JSON.stringify({ answer: INJECT }) }], structuredContent: { answer: INJECT } } }
    if (name === 'die') {
      process.stderr.write(`fatal error: ${INJECT}\n`)
      process.exit(1)
    }
    // echo, and any other tool: an isError text that is hostile.
    return hostileText({ isError: true })
  },
  unknownMethod: () => ({ error: { code: -32601, message: `Method not found: ${INJECT}` } })
})
