#!/usr/bin/env node
// A LEGACY (2025-11-25, `initialize`) stdio server that asks the client for input the 2025 way:
// server→client requests sent mid-call. Built on the v1 @modelcontextprotocol/sdk (1.32), as the
// published reference servers are. The same tools as mrtr-server.mjs, so one case runs against both eras:
//   order_item {item, quantity, street?, city?} → without street and city it sends
//     elicitation/create (the same message and requestedSchema as the modern fixture); accepted →
//     "Ordered 2 skillet to 1 Main St, Springfield (ref ORD-…)"; declined → "Order not placed: the
//     user declined to give an address"; cancelled → "Order cancelled".
//   summarize_text {text} → sends sampling/createMessage; "Summary: <the client's text>".
//   list_workspace {} → sends roots/list; "Roots: <uri>, <uri>" (or "Roots: none").
// Settings are KEY=VALUE command-line arguments:
//   ROUNDS=n      order_item asks for the address n times, one request after the other (n rounds;
//                 default 1); it stops at the first answer that is not an accept (a refusal too).
//   ASK=persist   order_item keeps asking after a refused request, until it has asked ROUNDS times;
//                 then "Asked n times: a accepted, r refused".
//   ASK=url       order_item asks in url mode (the client declares form only: a spec violation).
//   ASK=ping      order_item pings the client before it asks (a server request that asks no input).
//   ASK=sampling-undeclared  summarize_text sends sampling/createMessage even when the client did
//                 not declare sampling (a spec violation the observed checks flag).
//   ROOTS_AT_START=ms  as server-filesystem does: once initialized it asks for the roots, and takes
//                 the answer in `ms` later; until then `workspace_roots` answers "Roots: not yet".
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'
import { ADDRESS_MESSAGE, ADDRESS_SCHEMA, orderRef, summarySampling, URL_ELICITATION } from './mrtr-server.mjs'

const text = (value) => ({ content: [{ type: 'text', text: value }] })

/** A server whose tools ask the client mid-call; `ask` is the ASK switch, `rounds` the ROUNDS one. */
export function createLegacyInputServer({ ask = '', rounds = 1, rootsAtStart = null } = {}) {
  const server = new McpServer({ name: 'legacy-input-fixture', version: '1.0.0' }, { capabilities: { tools: {} } })
  if (rootsAtStart !== null) {
    let known = null
    server.server.oninitialized = async () => {
      const { roots } = await server.server.listRoots()
      setTimeout(() => (known = roots), rootsAtStart)
    }
    server.registerTool('workspace_roots', { description: 'The roots this server took in at start.', inputSchema: {} }, async () =>
      text(`Roots: ${known ? known.map((r) => r.uri).join(', ') : 'not yet'}`)
    )
  }
  // sendRequest, not the SDK's elicitInput/createMessage helpers: those refuse an undeclared capability, and ASK switches need to send one anyway.
  const request = (extra, method, params, schema) => extra.sendRequest({ method, params }, schema)

  server.registerTool(
    'order_item',
    {
      description: 'Order an item for delivery. Asks the user for a delivery address when none is given.',
      inputSchema: {
        item: z.string().describe('What to order'),
        quantity: z.number().int().describe('How many'),
        street: z.string().optional().describe('Delivery street'),
        city: z.string().optional().describe('Delivery city')
      }
    },
    async ({ item, quantity, street, city }, extra) => {
      if (street && city) return text(`Ordered ${quantity} ${item} to ${street}, ${city} (ref ${orderRef(item, quantity, street, city)})`)
      if (ask === 'ping') await server.server.ping()
      const params = ask === 'url' ? URL_ELICITATION : { mode: 'form', message: ADDRESS_MESSAGE, requestedSchema: ADDRESS_SCHEMA }
      if (ask === 'persist') {
        const tally = { accepted: 0, refused: 0 }
        for (let asked = 0; asked < rounds; asked++) {
          const answered = await request(extra, 'elicitation/create', params, ElicitResultSchema).then(
            (a) => a.action === 'accept',
            () => false
          )
          tally[answered ? 'accepted' : 'refused']++
        }
        return text(`Asked ${rounds} times: ${tally.accepted} accepted, ${tally.refused} refused`)
      }
      let answer
      for (let asked = 0; asked < rounds; asked++) {
        answer = await request(extra, 'elicitation/create', params, ElicitResultSchema)
        if (answer.action !== 'accept') break
      }
      if (answer.action === 'decline') return text('Order not placed: the user declined to give an address')
      if (answer.action === 'cancel') return text('Order cancelled')
      const { street: s, city: c } = answer.content ?? {}
      return text(`Ordered ${quantity} ${item} to ${s}, ${c} (ref ${orderRef(item, quantity, s, c)})`)
    }
  )

  server.registerTool('summarize_text', { description: "Summarize a text in one sentence (asks the client's model).", inputSchema: { text: z.string().describe('The text to summarize') } }, async ({ text: value }, extra) => {
    const declared = server.server.getClientCapabilities()?.sampling !== undefined
    if (!declared && ask !== 'sampling-undeclared') return { ...text('This client cannot sample: no summary'), isError: true }
    const result = await request(extra, 'sampling/createMessage', summarySampling(value), CreateMessageResultSchema)
    const content = result.content
    return text(`Summary: ${Array.isArray(content) ? content.map((c) => c.text ?? '').join('') : (content?.text ?? '')}`)
  })

  server.registerTool('list_workspace', { description: "List the client's workspace roots.", inputSchema: {} }, async (_args, extra) => {
    const { roots } = await request(extra, 'roots/list', undefined, ListRootsResultSchema)
    return text(`Roots: ${roots.map((r) => r.uri).join(', ') || 'none'}`)
  })
  return server
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const settings = Object.fromEntries(process.argv.slice(2).flatMap((arg) => (arg.includes('=') ? [[arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]] : [])))
  const rootsAtStart = settings.ROOTS_AT_START === undefined ? null : Number(settings.ROOTS_AT_START)
  await createLegacyInputServer({ ask: settings.ASK ?? '', rounds: Number(settings.ROUNDS ?? 1), rootsAtStart }).connect(new StdioServerTransport())
}
