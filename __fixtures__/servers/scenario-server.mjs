#!/usr/bin/env node
// A modern stdio MCP server for the evals/v1 scenario tests: a fruit shop whose tools answer
// with structuredContent under an outputSchema (what a turn's `result` assertions and `widget`
// fields read), a resource a result links (a nested `resource` assertion reads it through the
// run's session), and a destructive tool a suite forbids or keeps from a model.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import * as z from 'zod'

const FRUIT = {
  mango: { name: 'Mango', color: 'orange', price: 2.5 },
  apple: { name: 'Apple', color: 'red', price: 0.8 },
  kiwi: { name: 'Kiwi', color: 'green', price: 0.6 }
}
const ORIGIN = { mango: 'tropical', apple: 'temperate', kiwi: 'temperate' }
const fruit = z.object({ name: z.string(), color: z.string(), price: z.number() })
const structured = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value })

serveStdio(() => {
  const server = new McpServer({ name: 'fruit-shop', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } })
  server.registerTool(
    'search_fruit',
    {
      description: 'Search the fruit catalog by name',
      annotations: { readOnlyHint: true },
      inputSchema: z.object({ query: z.string().describe('What to look for'), limit: z.number().int().min(1).optional().describe('At most this many') }),
      outputSchema: z.object({ query: z.string(), results: z.array(fruit), total: z.number(), details_uri: z.string() })
    },
    async ({ query, limit }) => {
      const results = Object.entries(FRUIT)
        .filter(([key]) => key.includes(query.trim().toLowerCase()))
        .map(([, value]) => value)
        .slice(0, limit ?? 10)
      const first = results[0] ? results[0].name.toLowerCase() : 'none'
      return structured({ query, results, total: results.length, details_uri: `fruit://${first}` })
    }
  )
  server.registerTool(
    'delete_catalog',
    { description: 'Delete the whole fruit catalog', annotations: { destructiveHint: true }, inputSchema: z.object({}) },
    async () => ({ content: [{ type: 'text', text: 'catalog deleted' }] })
  )
  server.registerResource(
    'fruit-details',
    new ResourceTemplate('fruit://{name}', { list: undefined }),
    { description: 'One fruit, in detail', mimeType: 'application/json' },
    async (uri, { name }) => {
      const found = FRUIT[String(name)]
      const text = found ? JSON.stringify({ ...found, origin: ORIGIN[String(name)] }) : JSON.stringify({ error: `no fruit ${name}` })
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] }
    }
  )
  return server
})
