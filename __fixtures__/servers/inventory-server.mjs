#!/usr/bin/env node
// A modern stdio MCP server for the tool-test tests: an inventory with items and orders, tools
// with outputSchemas, and switches for the defects a tool test must catch, given as KEY=VALUE
// arguments (server env values count as secrets and are redacted from everything written):
//   SKILLET_BIN=X       the skillet's bin (a changed answer: json and snapshot checks fail)
//   SLOW_MS=N           every call waits N ms (max_ms)
//   FLAKY_FILE=path     get_item fails every second call across processes (pass^k)
//   EXIT_ON=tool        the process exits when that tool is called (an attempt error)
import { McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import * as z from 'zod'

const settings = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split(/=(.*)/s).slice(0, 2)))

const ITEMS = {
  'ITM-001': { id: 'ITM-001', name: 'Chef knife', bin: 'A-02-ALPHA', stock: 12, price: 49.5 },
  'ITM-005': { id: 'ITM-005', name: 'Cast-iron skillet', bin: settings.SKILLET_BIN ?? 'K-17-ZETA', stock: 3, price: 39 }
}
const item = z.object({ id: z.string(), name: z.string(), bin: z.string(), stock: z.number(), price: z.number() })
const order = z.object({ order_id: z.string(), item_id: z.string(), quantity: z.number(), created_at: z.string() })
const slow = () => new Promise((resolve) => setTimeout(resolve, Number(settings.SLOW_MS ?? 0)))
const structured = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value })

serveStdio(() => {
  const server = new McpServer({ name: 'inventory', version: '1.0.0' }, { capabilities: { tools: {} } })
  const orders = new Map()
  const exitOn = (tool) => {
    if (settings.EXIT_ON === tool) {
      process.stderr.write(`Error: ${tool} lost its database connection\n`)
      process.exit(4)
    }
  }
  server.registerTool(
    'get_item',
    { description: 'Look up an inventory item by id', annotations: { readOnlyHint: true }, inputSchema: z.object({ id: z.string().describe('Item id, e.g. ITM-005') }), outputSchema: item },
    async ({ id }) => {
      await slow()
      exitOn('get_item')
      if (settings.FLAKY_FILE) {
        const n = existsSync(settings.FLAKY_FILE) ? Number(readFileSync(settings.FLAKY_FILE, 'utf8')) : 0
        writeFileSync(settings.FLAKY_FILE, String(n + 1))
        if (n % 2 === 1) return { content: [{ type: 'text', text: 'inventory service busy, try again' }], isError: true }
      }
      const found = ITEMS[id]
      if (!found) return { content: [{ type: 'text', text: `no item ${id}` }], isError: true }
      return structured(found)
    }
  )
  server.registerTool(
    'create_order',
    {
      description: 'Create an order for an item',
      inputSchema: z.object({ item_id: z.string().describe('Item id'), quantity: z.number().int().min(1).describe('How many') }),
      outputSchema: order
    },
    async ({ item_id, quantity }) => {
      await slow()
      exitOn('create_order')
      if (!ITEMS[item_id]) return { content: [{ type: 'text', text: `no item ${item_id}` }], isError: true }
      const created = { order_id: `ORD-${orders.size + 1001}`, item_id, quantity, created_at: new Date().toISOString() }
      orders.set(created.order_id, created)
      return structured(created)
    }
  )
  server.registerTool(
    'get_order',
    { description: 'Read an order back by its id', annotations: { readOnlyHint: true }, inputSchema: z.object({ id: z.string().describe('Order id') }), outputSchema: order },
    async ({ id }) => {
      await slow()
      const found = orders.get(id)
      if (!found) return { content: [{ type: 'text', text: `no order ${id}` }], isError: true }
      return structured(found)
    }
  )
  server.registerTool(
    'describe_item',
    { description: 'A sentence about an item, in plain text', annotations: { readOnlyHint: true }, inputSchema: z.object({ id: z.string().describe('Item id') }) },
    async ({ id }) => ({ content: [{ type: 'text', text: ITEMS[id] ? `${ITEMS[id].name} is in bin ${ITEMS[id].bin}` : `no item ${id}` }], isError: !ITEMS[id] })
  )
  return server
})
