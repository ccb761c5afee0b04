#!/usr/bin/env node
// A server for the Layer 3 tests (latency budgets, OpenTelemetry), built on
// @modelcontextprotocol/server 2.4.0. Over stdio by default; `startTelemetryHttpServer()` serves it
// over Streamable HTTP on 127.0.0.1.
//   slow {label?} → answers after DELAY_MS milliseconds ("slow done")
//   fast {label?} → answers at once ("fast done")
// Settings are KEY=VALUE command-line arguments (never environment variables: our reports treat a
// server's env values as secrets): DELAY_MS=250 (default 0), LOG=/path/requests.jsonl (stdio).
// Every JSON-RPC request it gets is logged with its method, tool name and the trace context in
// `params._meta` (`traceparent`, `tracestate`): over stdio one JSON line per request appended to
// LOG, over HTTP in the `requests` array.
import { appendFileSync } from 'node:fs'
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import * as z from 'zod'
import { serveFetch } from './serve-fetch.mjs'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** One server per session; `delayMs` is how long `slow` takes. */
export function createTelemetryServer({ delayMs = 0 } = {}) {
  const server = new McpServer({ name: 'telemetry-fixture', version: '1.0.0' }, { capabilities: { tools: {} } })
  const input = z.object({ label: z.string().optional().describe('Any text; echoed back') })

  server.registerTool('slow', { description: `Answers after ${delayMs} ms.`, annotations: { readOnlyHint: true }, inputSchema: input }, async ({ label }) => {
    await sleep(delayMs)
    return { content: [{ type: 'text', text: `slow done${label ? `: ${label}` : ''}` }] }
  })
  server.registerTool('fast', { description: 'Answers at once.', annotations: { readOnlyHint: true }, inputSchema: input }, async ({ label }) => ({
    content: [{ type: 'text', text: `fast done${label ? `: ${label}` : ''}` }]
  }))
  return server
}

/** What the log holds of one JSON-RPC request: null for a notification or a response. */
export function describeRequest(message) {
  if (!message || typeof message !== 'object' || typeof message.method !== 'string' || message.id === undefined) return null
  const meta = message.params?._meta ?? {}
  return {
    method: message.method,
    tool: message.method === 'tools/call' ? (message.params?.name ?? null) : null,
    traceparent: typeof meta.traceparent === 'string' ? meta.traceparent : null,
    tracestate: typeof meta.tracestate === 'string' ? meta.tracestate : null
  }
}

/** The requests of one body (a message or a batch), described. */
function describeBody(text) {
  try {
    const parsed = JSON.parse(text)
    return (Array.isArray(parsed) ? parsed : [parsed]).map(describeRequest).filter((r) => r !== null)
  } catch {
    return []
  }
}

/** The same server over Streamable HTTP (modern, via createMcpHandler) on 127.0.0.1, recording every request. */
export async function startTelemetryHttpServer({ delayMs = 0 } = {}) {
  const handler = createMcpHandler(() => createTelemetryServer({ delayMs }))
  const requests = []
  const served = await serveFetch(handler, { onBody: (_method, body) => body && requests.push(...describeBody(body.toString('utf8'))) })
  return { url: served.url, requests, close: served.close }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const settings = Object.fromEntries(process.argv.slice(2).flatMap((arg) => (arg.includes('=') ? [[arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]] : [])))
  const delayMs = Number(settings.DELAY_MS ?? 0)
  if (settings.LOG) {
    // Read beside the SDK's own reader, registered first: a request is logged before it is handled.
    let pending = ''
    process.stdin.on('data', (chunk) => {
      pending += chunk.toString('utf8')
      let newline
      while ((newline = pending.indexOf('\n')) !== -1) {
        const line = pending.slice(0, newline).trim()
        pending = pending.slice(newline + 1)
        for (const entry of line ? describeBody(line) : []) appendFileSync(settings.LOG, `${JSON.stringify(entry)}\n`)
      }
    })
  }
  serveStdio(() => createTelemetryServer({ delayMs }))
}
