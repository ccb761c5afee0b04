#!/usr/bin/env node
// A hand-written 2025-11-25 stdio MCP server whose answers are made to hang a backtracking regex
// engine: 'a' × EVIL_LENGTH (44 unless set) then '!', which `^(a+)+$` takes 2^44 steps to refuse
// on one. `evil_text` answers it as text; `evil_structured` also as structuredContent, under an
// outputSchema whose own `pattern` is that regex (a hostile server's schema). `lookahead`'s
// inputSchema holds a pattern RE2 does not support.
import { appendFileSync } from 'node:fs'
import { serveLegacyTools } from './legacy-lines.mjs'

// Tests that expect it never to start check this file stays absent.
if (process.env.STARTED_FILE) appendFileSync(process.env.STARTED_FILE, `${process.pid}\n`)

const EVIL = 'a'.repeat(Number(process.env.EVIL_LENGTH ?? 44)) + '!'
const NO_ARGS = { type: 'object', properties: {} }
const tools = [
  { name: 'evil_text', description: 'Answer a text made for catastrophic backtracking', inputSchema: NO_ARGS },
  {
    name: 'evil_structured',
    description: 'The same text, structured, under a schema whose pattern backtracks',
    inputSchema: NO_ARGS,
    outputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^(a+)+$' } }, required: ['text'] }
  },
  // A valid ECMAScript pattern RE2 cannot run: the harness's limit, not the server's fault.
  { name: 'lookahead', description: 'Take a code that does not start with x', inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^(?!x)' } } } }
]
const text = (value, extra = {}) => ({ result: { content: [{ type: 'text', text: value }], ...extra } })

serveLegacyTools({
  name: 'regex-bomb',
  tools,
  call: (name) => {
    if (name === 'evil_text') return text(EVIL)
    if (name === 'evil_structured') return text(EVIL, { structuredContent: { text: EVIL } })
    return text(`Tool ${name} not found`, { isError: true })
  }
})
