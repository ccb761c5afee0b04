#!/usr/bin/env node
// A modern stdio MCP server for the evals/v1 checks (tool tests with assert[] rules): a tool with
// an outputSchema and structuredContent that links a widget, a tool that answers isError, a tool
// with no structured output, resources (JSON settings, the widget's HTML) and a prompt, so that
// every assertion kind and every call (tools/call, resources/read, the three lists) can pass and fail.
import { McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import * as z from 'zod'

const WIDGET = 'ui://widget/weather.html'
const WEATHER = {
  paris: { city: 'Paris', temp: 21.5, conditions: ['sunny', 'windy'], wind: { speed: 12, unit: 'km/h' } },
  oslo: { city: 'Oslo', temp: -3, conditions: ['snow'], wind: { speed: 30, unit: 'km/h' } }
}
const weather = z.object({
  city: z.string(),
  temp: z.number(),
  conditions: z.array(z.string()),
  wind: z.object({ speed: z.number(), unit: z.string() }),
  widget: z.string()
})

serveStdio(() => {
  const server = new McpServer({ name: 'evals-v1-weather', version: '1.0.0' }, { capabilities: { tools: {}, resources: {}, prompts: {} } })
  server.registerTool(
    'get_weather',
    {
      description: 'Current weather for a city, with a widget to show it',
      annotations: { readOnlyHint: true },
      inputSchema: z.object({ city: z.string().describe('City name, e.g. Paris') }),
      outputSchema: weather,
      _meta: { ui: { resourceUri: WIDGET } }
    },
    async ({ city }) => {
      const found = WEATHER[city.trim().toLowerCase()]
      if (!found) return { content: [{ type: 'text', text: `Unknown city: ${city}` }], isError: true }
      const value = { ...found, widget: WIDGET }
      return { content: [{ type: 'text', text: `${found.city}: ${found.temp}°C, ${found.conditions.join(', ')}` }], structuredContent: value }
    }
  )
  server.registerTool(
    'delete_city',
    { description: 'Refuses every time: cities cannot be deleted', inputSchema: z.object({ city: z.string() }) },
    async ({ city }) => ({ content: [{ type: 'text', text: `Permission denied: ${city} cannot be deleted` }], isError: true })
  )
  server.registerTool('echo', { description: 'Says the text back, as text only', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }]
  }))
  server.registerResource('settings', 'config://settings', { description: 'The server settings', mimeType: 'application/json' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ theme: 'dark', lang: 'fr', units: 'metric' }) }]
  }))
  server.registerResource('weather-widget', WIDGET, { description: 'The weather widget', mimeType: 'text/html;profile=mcp-app' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/html;profile=mcp-app', text: '<div id="weather"><h1>Weather</h1><script src="app.js"></script></div>' }]
  }))
  server.registerPrompt('forecast', { description: 'Ask for a forecast', argsSchema: z.object({ city: z.string().describe('City') }) }, ({ city }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `What is the forecast for ${city}?` } }]
  }))
  return server
})
