#!/usr/bin/env node
// A small, realistic MCP server for the examples and the tests: a travel helper with
// deterministic data, built on @modelcontextprotocol/server 2.4.0 so it speaks 2026-07-28
// (and still serves 2025-era clients through the same factory).
import { acceptedContent, inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import * as z from 'zod'

const WEATHER = {
  paris: { condition: 'light rain', temperature_c: 14, humidity: 81 },
  tokyo: { condition: 'clear', temperature_c: 22, humidity: 55 },
  'new york': { condition: 'cloudy', temperature_c: 9, humidity: 63 },
  sydney: { condition: 'sunny', temperature_c: 27, humidity: 48 }
}
const RATES_TO_USD = { USD: 1, EUR: 1.08, GBP: 1.27, JPY: 0.0067, AUD: 0.66 }
const TIMEZONES = { paris: 'Europe/Paris', tokyo: 'Asia/Tokyo', 'new york': 'America/New_York', sydney: 'Australia/Sydney' }
const ATTRACTIONS = {
  paris: ['Louvre Museum', 'Eiffel Tower', "Musée d'Orsay"],
  tokyo: ['Senso-ji', 'Meiji Shrine', 'teamLab Planets'],
  'new york': ['Central Park', 'The Met', 'Brooklyn Bridge'],
  sydney: ['Opera House', 'Bondi Beach', 'Taronga Zoo']
}

const CITY_NAMES = { paris: 'Paris', tokyo: 'Tokyo', 'new york': 'New York', sydney: 'Sydney' }
const COUNTRIES = { paris: 'France', tokyo: 'Japan', 'new york': 'United States', sydney: 'Australia' }
const DESTINATIONS_UI = 'ui://travel/destination-cards.html'
/**
 * The MCP Apps view: completes the MCP Apps handshake with its host (ui/initialize, then
 * ui/notifications/initialized, over postMessage JSON-RPC) and renders the tool result it is
 * given (ui/notifications/tool-result) as cards.
 */
const DESTINATIONS_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Destinations</title>
<style>body{font-family:sans-serif;margin:0;padding:12px}.card{border:1px solid #ccc;border-radius:8px;padding:8px 12px;margin:0 0 8px}h2{margin:0;font-size:18px}</style>
</head><body><main id="cards">Waiting for the tool result…</main>
<script>
const post = (message) => window.parent.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*')
const render = (data) => {
  if (!data || !Array.isArray(data.results)) return
  const main = document.getElementById('cards')
  main.replaceChildren(...data.results.map((r) => {
    const card = document.createElement('section')
    card.className = 'card'
    const title = document.createElement('h2')
    title.textContent = r.city + ', ' + r.country
    const list = document.createElement('p')
    list.textContent = r.attractions.join(' · ')
    card.append(title, list)
    return card
  }))
}
window.addEventListener('message', (event) => {
  const message = event.data
  if (!message || message.jsonrpc !== '2.0') return
  if (message.id === 1 && 'result' in message) post({ method: 'ui/notifications/initialized', params: {} })
  else if (message.method === 'ui/notifications/tool-result') render(message.params && message.params.structuredContent)
  // Any other request of the host (a teardown) is answered with an empty result.
  else if (message.method && message.id !== undefined) post({ id: message.id, result: {} })
})
post({ id: 1, method: 'ui/initialize', params: { appInfo: { name: 'destination-cards', version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' } })
</script></body></html>
`
const GUEST_MESSAGE = 'Whose name should the hotel booking be under? Give the guest name.'
const GUEST_SCHEMA = { type: 'object', properties: { name: { type: 'string', description: 'Guest name' } }, required: ['name'] }
/** A stable booking reference for the same booking. */
const bookingRef = (city, nights, name) => `HTL-${[...`${cityKey(city)}|${nights}|${name}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7).toString(36).toUpperCase()}`

const text = (value) => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] })
const failure = (message) => ({ content: [{ type: 'text', text: message }], isError: true })
const cityKey = (city) => city.trim().toLowerCase()

export function createTravelServer() {
  const server = new McpServer({ name: 'travel-helper', version: '1.0.0' }, { capabilities: { tools: {}, resources: {}, prompts: {} } })

  server.registerTool(
    'get_weather',
    {
      description: 'Current weather for a city. Returns condition, temperature and humidity.',
      annotations: { readOnlyHint: true },
      inputSchema: z.object({
        city: z.string().describe('City name, e.g. "Paris"').meta({ examples: ['Paris'] }),
        units: z.enum(['celsius', 'fahrenheit']).default('celsius').describe('Temperature unit')
      })
    },
    async ({ city, units }) => {
      const w = WEATHER[cityKey(city)]
      if (!w) return failure(`Unknown city: ${city}. Known cities: ${Object.keys(WEATHER).join(', ')}`)
      const temperature = units === 'fahrenheit' ? Math.round(w.temperature_c * 1.8 + 32) : w.temperature_c
      return text({ city, condition: w.condition, temperature, units, humidity: w.humidity })
    }
  )

  server.registerTool(
    'convert_currency',
    {
      description: 'Convert an amount of money between currencies (USD, EUR, GBP, JPY, AUD) at fixed reference rates.',
      annotations: { readOnlyHint: true },
      inputSchema: z.object({
        amount: z.number().describe('Amount to convert').meta({ examples: [250] }),
        from: z.string().describe('ISO 4217 code of the source currency').meta({ examples: ['EUR'] }),
        to: z.string().describe('ISO 4217 code of the target currency').meta({ examples: ['USD'] })
      })
    },
    async ({ amount, from, to }) => {
      const a = RATES_TO_USD[from.toUpperCase()]
      const b = RATES_TO_USD[to.toUpperCase()]
      if (a === undefined || b === undefined) return failure(`Unsupported currency: ${a === undefined ? from : to}`)
      const converted = Math.round(((amount * a) / b) * 100) / 100
      return text({ amount, from: from.toUpperCase(), to: to.toUpperCase(), converted })
    }
  )

  server.registerTool(
    'get_local_time',
    {
      description: 'The IANA time zone and UTC offset of a city (no clock reading, so answers are reproducible).',
      annotations: { readOnlyHint: true },
      inputSchema: z.object({ city: z.string().describe('City name') })
    },
    async ({ city }) => {
      const tz = TIMEZONES[cityKey(city)]
      return tz ? text({ city, timezone: tz }) : failure(`Unknown city: ${city}`)
    }
  )

  server.registerTool(
    'search_attractions',
    {
      description: 'Top tourist attractions in a city, best first.',
      annotations: { readOnlyHint: true },
      inputSchema: z.object({
        city: z.string().describe('City name'),
        limit: z.number().int().min(1).max(3).default(3).describe('How many attractions to return (1-3)')
      })
    },
    async ({ city, limit }) => {
      const list = ATTRACTIONS[cityKey(city)]
      return list ? text({ city, attractions: list.slice(0, limit) }) : failure(`Unknown city: ${city}`)
    }
  )

  server.registerTool(
    'plan_trip',
    {
      description: 'Build a day-by-day itinerary for a trip to one city.',
      annotations: { readOnlyHint: true },
      inputSchema: z.object({
        city: z.string().describe('Destination city'),
        days: z.number().int().min(1).max(7).describe('Trip length in days (1-7)')
      })
    },
    async ({ city, days }) => {
      const list = ATTRACTIONS[cityKey(city)]
      if (!list) return failure(`Unknown city: ${city}`)
      const plan = Array.from({ length: days }, (_, i) => ({ day: i + 1, visit: list[i % list.length] }))
      return text({ city, days, plan })
    }
  )

  // Asks back for the guest's name: on a 2026-07-28 request with an input_required result (MRTR),
  // on a 2025-era connection with an elicitation/create request to the client.
  server.registerTool(
    'book_hotel',
    {
      description: 'Book a hotel in a city for some nights. Asks the user for the guest name.',
      inputSchema: z.object({
        city: z.string().describe('City to stay in'),
        nights: z.number().int().min(1).max(30).describe('Number of nights')
      })
    },
    async ({ city, nights }, ctx) => {
      if (!ATTRACTIONS[cityKey(city)]) return failure(`Unknown city: ${city}`)
      let answer
      if (ctx.mcpReq.envelope) {
        const view = inputResponse(ctx.mcpReq.inputResponses, 'guest')
        if (view.kind !== 'elicit') return inputRequired({ inputRequests: { guest: inputRequired.elicit({ mode: 'form', message: GUEST_MESSAGE, requestedSchema: GUEST_SCHEMA }) } })
        answer = { action: view.action, content: acceptedContent(ctx.mcpReq.inputResponses, 'guest') }
      } else {
        answer = await ctx.mcpReq.elicitInput({ mode: 'form', message: GUEST_MESSAGE, requestedSchema: GUEST_SCHEMA })
      }
      const name = answer.action === 'accept' ? answer.content?.name : undefined
      if (!name) return text(`Not booked: no guest name was given (${answer.action}).`)
      return text({ booked: true, city, nights, guest: name, reference: bookingRef(city, nights, name) })
    }
  )

  // Structured output (outputSchema + structuredContent, with the same JSON as text): the tool the
  // evals/v1 starter template checks (outputSchemaValid, jsonpath on $.structuredContent).
  server.registerTool(
    'get_forecast',
    {
      description: 'A three-day forecast for a city, as structured data: high and low in Celsius and the condition per day.',
      annotations: { readOnlyHint: true },
      inputSchema: z.object({ city: z.string().describe('City name, e.g. "Paris"').meta({ examples: ['Paris'] }) }),
      outputSchema: z.object({
        city: z.string().describe('The city, as the server names it'),
        days: z.array(z.object({ day: z.number().int(), condition: z.string(), high_c: z.number(), low_c: z.number() })).describe('One entry per day, from tomorrow')
      })
    },
    async ({ city }) => {
      const key = cityKey(city)
      const w = WEATHER[key]
      if (!w) return failure(`Unknown city: ${city}. Known cities: ${Object.keys(WEATHER).join(', ')}`)
      const forecast = { city: CITY_NAMES[key], days: [0, 1, 2].map((i) => ({ day: i + 1, condition: w.condition, high_c: w.temperature_c + 2 - i, low_c: w.temperature_c - 6 - i })) }
      return { ...text(forecast), structuredContent: forecast }
    }
  )

  // An MCP Apps tool: it links a ui:// resource (HTML a host renders with the result) and answers
  // with structuredContent: the tool the evals/v1 mcp-apps template checks (widget fields).
  server.registerTool(
    'search_destinations',
    {
      description: 'Find destinations whose name or attractions match a query; a host that supports MCP Apps shows them as cards.',
      annotations: { readOnlyHint: true },
      inputSchema: z.object({ query: z.string().describe('A city or an attraction, e.g. "tokyo" or "beach"').meta({ examples: ['tokyo'] }) }),
      outputSchema: z.object({
        query: z.string().describe('The query as searched: trimmed, in lower case'),
        results: z.array(z.object({ city: z.string(), country: z.string(), attractions: z.array(z.string()) })).describe('Matching destinations, best first')
      }),
      _meta: { ui: { resourceUri: DESTINATIONS_UI } }
    },
    async ({ query }) => {
      const q = cityKey(query)
      const results = Object.keys(ATTRACTIONS)
        .filter((key) => q !== '' && (key.includes(q) || ATTRACTIONS[key].some((a) => a.toLowerCase().includes(q))))
        .map((key) => ({ city: CITY_NAMES[key], country: COUNTRIES[key], attractions: ATTRACTIONS[key] }))
      const found = { query: q, results }
      return { ...text(found), structuredContent: found }
    }
  )

  server.registerResource(
    'supported-cities',
    'travel://cities',
    { description: 'The list of cities this server knows about', mimeType: 'application/json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(Object.keys(WEATHER)) }] })
  )

  server.registerResource(
    'destination-cards',
    DESTINATIONS_UI,
    { description: 'The MCP Apps view of search_destinations: one card per destination', mimeType: 'text/html;profile=mcp-app' },
    // It reaches no network: an empty CSP, declared (a host then needs no default).
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/html;profile=mcp-app', text: DESTINATIONS_HTML, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } } }] })
  )

  server.registerPrompt(
    'packing_list',
    {
      description: 'A packing-list request for a trip',
      argsSchema: z.object({ city: z.string().describe('Destination city') })
    },
    ({ city }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `What should I pack for a trip to ${city}?` } }] })
  )

  return server
}

if (import.meta.url === `file://${process.argv[1]}`) {
  serveStdio(createTravelServer)
}
