#!/usr/bin/env node
// A hand-written stdio MCP server for the overlap tests (conformance alongside the runs, the era
// verdict as prior), one `echo` tool. Switches, as KEY=VALUE arguments:
//   STARTS=<file>  append this process's pid to <file> as it starts (how many servers were started)
//   LATCH=<url>    hold the answer to a call of a tool it does not have (only the conformance probe
//                  makes one) until a GET of <url> is answered
//   ERA=modern     (default) 2026-07-28 only: server/discover, and initialize refused with -32022
//   ERA=legacy     2025-11-25 only: -32601 to server/discover, -32002 to anything before initialize
//   ERA=legacy-exits  2025-11-25, and it exits on any request before initialize
import { appendFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

const settings = Object.fromEntries(process.argv.slice(2).flatMap((arg) => (arg.includes('=') ? [[arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]] : [])))
if (settings.STARTS) appendFileSync(settings.STARTS, `${process.pid}\n`)
const era = settings.ERA ?? 'modern'
const VERSION = '2026-07-28'
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'overlap-fixture', version: '1.0.0' } }
const TOOLS = [{ name: 'echo', description: 'Echo text back', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }]

const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n')
const complete = (result) => (era === 'modern' ? { resultType: 'complete', ...result, _meta: SERVER_INFO } : result)
const listed = (result) => (era === 'modern' ? complete({ ...result, ttlMs: 0, cacheScope: 'public' }) : result)
let initialized = false

async function answer(msg) {
  if (msg.method === 'initialize') {
    if (era === 'modern') return { error: { code: -32022, message: 'Unsupported protocol version', data: { supported: [VERSION], requested: msg.params?.protocolVersion ?? null } } }
    initialized = true
    return { result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'overlap-fixture', version: '0.9.0' } } }
  }
  if (era !== 'modern' && !initialized) {
    if (era === 'legacy-exits') process.exit(1)
    return msg.method === 'server/discover' ? { error: { code: -32601, message: 'Method not found: server/discover' } } : { error: { code: -32002, message: 'not initialized' } }
  }
  switch (msg.method) {
    case 'server/discover':
      if (era !== 'modern') return { error: { code: -32601, message: 'Method not found: server/discover' } }
      return { result: complete({ supportedVersions: [VERSION], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public' }) }
    case 'tools/list':
      return { result: listed({ tools: TOOLS }) }
    case 'tools/call': {
      if (msg.params?.name !== 'echo') {
        if (settings.LATCH) await fetch(settings.LATCH).then((response) => response.text())
        return { error: { code: -32602, message: `Unknown tool: ${msg.params?.name}` } }
      }
      return { result: complete({ content: [{ type: 'text', text: String(msg.params?.arguments?.text ?? '') }] }) }
    }
    case 'ping':
      return { result: {} }
    default:
      return { error: { code: -32601, message: `Method not found: ${msg.method}` } }
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return
  const msg = JSON.parse(line)
  if (msg.id === undefined) return
  void answer(msg).then((reply) => send({ id: msg.id, ...reply }))
})
