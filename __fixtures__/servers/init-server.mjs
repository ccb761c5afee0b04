#!/usr/bin/env node
// A stdio MCP server for `init`'s tests: a read-only tool whose inputs carry examples, defaults,
// an enum and a const; a read-only tool with none (placeholders); a destructive tool; a tool with
// no annotations. Descriptions carry YAML-hostile text. With ECHO_SECRET=1 one description also
// carries the value of API_TOKEN, as a careless server might, to show that it is never written.
import { McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import * as z from 'zod'

const HOSTILE_DESCRIPTION = [
  `Look up one item: by id # not a comment - | > ' " {} [] & * ! % @ \``,
  '- a line that looks like a list item',
  'key: value # and a "quoted" \'single\' {flow: map}',
  '---',
  '...',
  '  indented, with trailing spaces   '
].join('\n')

const ITEMS = { 'ITM-005': { id: 'ITM-005', name: 'cast-iron skillet', bin: 'K-17-ZETA', stock: 4 } }

serveStdio(() => {
  const server = new McpServer({ name: 'init-fixture', version: '1.0.0' }, { capabilities: { tools: {} } })

  server.registerTool(
    'lookup_item',
    {
      description: HOSTILE_DESCRIPTION,
      annotations: { readOnlyHint: true },
      inputSchema: z.object({
        id: z.string().describe('Item id').meta({ examples: ['ITM-005'] }),
        verbose: z.boolean().default(false).describe('More detail'),
        format: z.enum(['json', 'text']).describe('Answer format'),
        api: z.literal('v2').describe('API version'),
        note: z.string().optional().describe('A note').meta({ examples: ['a: b # c "d" \'e\''] })
      })
    },
    async ({ id }) => {
      const item = ITEMS[id]
      return item
        ? { content: [{ type: 'text', text: JSON.stringify(item) }] }
        : { content: [{ type: 'text', text: `Unknown item: ${id}` }], isError: true }
    }
  )

  server.registerTool(
    'notes.search',
    {
      description: `Search notes.${process.env.ECHO_SECRET === '1' ? ` Authenticated as ${process.env.API_TOKEN}.` : ''}`,
      annotations: { readOnlyHint: true },
      inputSchema: z.object({
        query: z.string().describe('Words to look for'),
        limit: z.number().int().min(5).max(50).describe('How many'),
        score: z.number().describe('Minimum score'),
        exact: z.boolean().describe('Exact match'),
        tags: z.array(z.string()).describe('Tags'),
        filter: z.object({ owner: z.string(), year: z.number().int() }).describe('Filter'),
        extra: z.string().optional().describe('Optional, without a value: left out')
      })
    },
    async ({ query }) => ({ content: [{ type: 'text', text: `no notes match ${query}` }] })
  )

  server.registerTool(
    'delete_item',
    {
      description: 'Delete an item for good.',
      annotations: { readOnlyHint: false, destructiveHint: true },
      inputSchema: z.object({ id: z.string().describe('Item id') })
    },
    async ({ id }) => ({ content: [{ type: 'text', text: `deleted ${id}` }] })
  )

  server.registerTool(
    'restock',
    { inputSchema: z.object({ id: z.string(), count: z.number().int() }) },
    async ({ id, count }) => ({ content: [{ type: 'text', text: `restocked ${id} by ${count}` }] })
  )

  return server
})
