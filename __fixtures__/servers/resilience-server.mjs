#!/usr/bin/env node
// A weather-and-booking server for the fault-injection tests (src/resilience/), built on
// @modelcontextprotocol/server 2.4.0. Over stdio by default; `startResilienceHttpServer()` serves
// it over Streamable HTTP on 127.0.0.1 and records every request it got.
//   get_weather {city}  → structured output with an outputSchema {city, temp_c, sky}
//   get_forecast {city} → a plain-text forecast (the fallback a model can turn to)
//   book_slot {slot}    → NOT idempotent: counts its executions in this process and answers with
//                         the count, so a test can prove a re-sent call ran twice
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import * as z from 'zod'
import { serveFetch } from './serve-fetch.mjs'

const WEATHER = {
  paris: { temp_c: 14, sky: 'light rain' },
  tokyo: { temp_c: 22, sky: 'clear' }
}
const FORECAST = { paris: 'Tomorrow: 16 °C, cloudy.', tokyo: 'Tomorrow: 24 °C, sunny.' }

const cityKey = (city) => city.trim().toLowerCase()
const failure = (message) => ({ content: [{ type: 'text', text: message }], isError: true })

/** One server per session; `bookings` is shared, as a real backend's state would be. */
export function createResilienceServer(bookings = { count: 0 }) {
  const server = new McpServer({ name: 'resilience-fixture', version: '1.0.0' }, { capabilities: { tools: {} } })

  server.registerTool(
    'get_weather',
    {
      description: 'Current weather for a city.',
      annotations: { readOnlyHint: true },
      inputSchema: z.object({ city: z.string().describe('City name') }),
      outputSchema: z.object({ city: z.string(), temp_c: z.number(), sky: z.string() })
    },
    async ({ city }) => {
      const w = WEATHER[cityKey(city)]
      if (!w) return failure(`Unknown city: ${city}`)
      const structured = { city, temp_c: w.temp_c, sky: w.sky }
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured }
    }
  )

  server.registerTool(
    'get_forecast',
    {
      description: "Tomorrow's forecast for a city.",
      annotations: { readOnlyHint: true },
      inputSchema: z.object({ city: z.string().describe('City name') })
    },
    async ({ city }) => {
      const f = FORECAST[cityKey(city)]
      return f ? { content: [{ type: 'text', text: f }] } : failure(`Unknown city: ${city}`)
    }
  )

  server.registerTool(
    'book_slot',
    {
      description: 'Book an appointment slot. Not idempotent: every call makes a booking.',
      annotations: { idempotentHint: false, destructiveHint: false },
      inputSchema: z.object({ slot: z.string().describe('Slot, e.g. "09:00"') })
    },
    async ({ slot }) => {
      bookings.count++
      return { content: [{ type: 'text', text: `booked ${slot} (booking #${bookings.count})` }] }
    }
  )

  return server
}

/** The request as the server saw it: HTTP method and, for a JSON-RPC body, its id(s) and method(s). */
function describeRequest(method, body) {
  let messages = []
  if (body) {
    try {
      const parsed = JSON.parse(body.toString('utf8'))
      messages = Array.isArray(parsed) ? parsed : [parsed]
    } catch {
      messages = []
    }
  }
  const first = messages[0] ?? {}
  return {
    method,
    id: first.id ?? null,
    rpc: typeof first.method === 'string' ? first.method : null,
    tool: first.method === 'tools/call' ? (first.params?.name ?? null) : null
  }
}

/**
 * The same server over Streamable HTTP (modern, via createMcpHandler) on 127.0.0.1. `responseMode`
 * 'json' (the handler's default for a call that sends nothing before its result) or 'sse': a cut
 * stream must be tested on both, since the SDK reads them differently.
 */
export async function startResilienceHttpServer({ responseMode = 'auto' } = {}) {
  const bookings = { count: 0 }
  const handler = createMcpHandler(() => createResilienceServer(bookings), { responseMode })
  const requests = []
  const served = await serveFetch(handler, { onBody: (method, body) => requests.push(describeRequest(method, body)) })
  return { url: served.url, requests, bookings, close: served.close }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bookings = { count: 0 }
  serveStdio(() => createResilienceServer(bookings))
}
