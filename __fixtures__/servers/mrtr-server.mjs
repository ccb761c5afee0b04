#!/usr/bin/env node
// A MODERN (2026-07-28) server that asks the client for input the 2026 way: its tools answer
// `input_required` (MRTR) and finish when the client retries with `inputResponses`. Built on
// @modelcontextprotocol/server 2.4.0; over stdio by default, `startMrtrHttpServer()` serves it over
// Streamable HTTP on 127.0.0.1.
//   order_item {item, quantity, street?, city?} → without street and city it elicits an address
//     (message "Where should the order be delivered? Give a delivery address.", requestedSchema
//     {street, city}, both required strings); accepted → "Ordered 2 skillet to 1 Main St,
//     Springfield (ref ORD-…)"; declined → "Order not placed: the user declined to give an
//     address"; cancelled → "Order cancelled".
//   summarize_text {text} → asks for sampling; "Summary: <the client's text>".
//   list_workspace {} → asks for the roots; "Roots: <uri>, <uri>" (or "Roots: none").
//   prompt `welcome` → elicits a name; one user message "Welcome, <name>!".
//   resource `workspace://roots` → asks for the roots; their URIs, one a line.
// Settings are KEY=VALUE command-line arguments (never environment variables: our reports treat a
// server's env values as secrets):
//   ROUNDS=n      order_item asks n times (a fresh elicitation each round) before it completes (default 1).
//   ASK=sampling-undeclared  summarize_text's first answer asks for sampling whatever the client
//                 declared (hand-built: the SDK refuses to, with -32021).
//   ASK=url       order_item's first answer asks for a url-mode elicitation (hand-built; the client
//                 declares form mode only).
//   BAD=ttl       order_item's first input_required answer carries ttlMs and cacheScope (§6 forbids them).
//   BAD=shape     order_item's input_required answer has an inputRequests entry without a method.
//   BAD=list      prompts/list is answered with input_required (allowed only on tools/call,
//                 prompts/get, resources/read).
// Hand-built answers are written by a thin layer over the stdio transport: the SDK never sees those
// requests.
import { createHash } from 'node:crypto'
import { acceptedContent, createMcpHandler, inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server'
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio'
import * as z from 'zod'
import { serveFetch } from './serve-fetch.mjs'

export const ADDRESS_MESSAGE = 'Where should the order be delivered? Give a delivery address.'
export const ADDRESS_SCHEMA = {
  type: 'object',
  properties: { street: { type: 'string', description: 'Street and number' }, city: { type: 'string', description: 'City' } },
  required: ['street', 'city']
}
export const NAME_MESSAGE = 'What name should the welcome use?'
const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
/** The url-mode elicitation ASK=url asks for (both fixtures). */
export const URL_ELICITATION = { mode: 'url', message: 'Open the page to give a delivery address.', url: 'https://shop.example/address', elicitationId: 'address-1' }

const text = (value) => ({ content: [{ type: 'text', text: value }] })

/** The order reference: derived from the order, so a test can predict it. */
export function orderRef(item, quantity, street, city) {
  return `ORD-${createHash('sha256').update(JSON.stringify([item, quantity, street, city])).digest('hex').slice(0, 6).toUpperCase()}`
}

/** The sampling request summarize_text sends. */
export function summarySampling(value) {
  return {
    messages: [{ role: 'user', content: { type: 'text', text: `Summarize in one sentence: ${value}` } }],
    systemPrompt: 'You write one-sentence summaries.',
    maxTokens: 200
  }
}

const elicitAddress = () => inputRequired.elicit({ mode: 'form', message: ADDRESS_MESSAGE, requestedSchema: ADDRESS_SCHEMA })

/** One server per session; `rounds`: how many times order_item asks before it completes. */
export function createMrtrServer({ rounds = 1 } = {}) {
  const server = new McpServer({ name: 'mrtr-fixture', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {}, resources: {} } })

  server.registerTool(
    'order_item',
    {
      description: 'Order an item for delivery. Asks the user for a delivery address when none is given.',
      inputSchema: z.object({
        item: z.string().describe('What to order'),
        quantity: z.number().int().describe('How many'),
        street: z.string().optional().describe('Delivery street'),
        city: z.string().optional().describe('Delivery city')
      })
    },
    async ({ item, quantity, street, city }, ctx) => {
      if (street && city) return text(`Ordered ${quantity} ${item} to ${street}, ${city} (ref ${orderRef(item, quantity, street, city)})`)
      // requestState carries how many rounds were answered (the fixture's own, unprotected state).
      const answered = Number(ctx.mcpReq.requestState() ?? 0)
      const view = inputResponse(ctx.mcpReq.inputResponses, 'address')
      if (view.kind === 'elicit' && view.action === 'decline') return text('Order not placed: the user declined to give an address')
      if (view.kind === 'elicit' && view.action === 'cancel') return text('Order cancelled')
      const address = acceptedContent(ctx.mcpReq.inputResponses, 'address')
      const done = view.kind === 'elicit' ? answered + 1 : answered
      if (address && done >= rounds) {
        return text(`Ordered ${quantity} ${item} to ${address.street}, ${address.city} (ref ${orderRef(item, quantity, address.street, address.city)})`)
      }
      return inputRequired({ inputRequests: { address: elicitAddress() }, requestState: String(done) })
    }
  )

  server.registerTool(
    'summarize_text',
    { description: "Summarize a text in one sentence (asks the client's model).", inputSchema: z.object({ text: z.string().describe('The text to summarize') }) },
    async ({ text: value }, ctx) => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'summary')
      if (view.kind === 'sampling') {
        const content = view.result.content
        const said = Array.isArray(content) ? content.map((c) => c.text ?? '').join('') : (content?.text ?? '')
        return text(`Summary: ${said}`)
      }
      return inputRequired({ inputRequests: { summary: inputRequired.createMessage(summarySampling(value)) } })
    }
  )

  server.registerTool('list_workspace', { description: "List the client's workspace roots.", inputSchema: z.object({}) }, async (_args, ctx) => {
    const view = inputResponse(ctx.mcpReq.inputResponses, 'roots')
    if (view.kind === 'roots') return text(`Roots: ${view.roots.map((r) => r.uri).join(', ') || 'none'}`)
    return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } })
  })

  server.registerPrompt('welcome', { description: 'A welcome message; asks for the name to use.' }, async (ctx) => {
    const name = acceptedContent(ctx.mcpReq.inputResponses, 'name')
    if (typeof name?.name === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: `Welcome, ${name.name}!` } }] }
    return inputRequired({ inputRequests: { name: inputRequired.elicit({ mode: 'form', message: NAME_MESSAGE, requestedSchema: NAME_SCHEMA }) } })
  })

  server.registerResource('workspace-roots', 'workspace://roots', { description: "The client's roots, one a line.", mimeType: 'text/plain' }, async (uri, ctx) => {
    const view = inputResponse(ctx.mcpReq.inputResponses, 'roots')
    if (view.kind === 'roots') return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: view.roots.map((r) => r.uri).join('\n') }] }
    return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } })
  })
  return server
}

/**
 * The hand-built answer to one inbound frame, for the misbehaviour switches; undefined: the SDK
 * answers it.
 */
export function handBuiltAnswer(message, { ask = '', bad = '' } = {}) {
  if (!message || typeof message !== 'object' || message.id === undefined || typeof message.method !== 'string') return undefined
  const params = message.params ?? {}
  const result = (value) => ({ jsonrpc: '2.0', id: message.id, result: value })
  const firstLeg = params.inputResponses === undefined && params.requestState === undefined
  if (message.method === 'tools/call' && firstLeg) {
    if (ask === 'url' && params.name === 'order_item' && !(params.arguments?.street && params.arguments?.city)) {
      return result({ resultType: 'input_required', inputRequests: { address: { method: 'elicitation/create', params: URL_ELICITATION } } })
    }
    if (ask === 'sampling-undeclared' && params.name === 'summarize_text') {
      const value = typeof params.arguments?.text === 'string' ? params.arguments.text : ''
      return result({ resultType: 'input_required', inputRequests: { summary: { method: 'sampling/createMessage', params: summarySampling(value) } } })
    }
    // The SDK strips ttlMs and cacheScope from an input_required return: written by hand.
    if (bad === 'ttl' && params.name === 'order_item' && !(params.arguments?.street && params.arguments?.city)) {
      return result({ resultType: 'input_required', inputRequests: { address: elicitAddress() }, requestState: '0', ttlMs: 60000, cacheScope: 'private' })
    }
    if (bad === 'shape' && params.name === 'order_item') {
      return result({ resultType: 'input_required', inputRequests: { address: { params: { message: ADDRESS_MESSAGE, requestedSchema: ADDRESS_SCHEMA } } } })
    }
  }
  if (message.method === 'prompts/list' && bad === 'list') return result({ resultType: 'input_required', requestState: 'list-state' })
  return undefined
}

/** A stdio server transport whose inbound frames pass `answer` first: a frame it answers never reaches the SDK. */
class AnsweringTransport {
  constructor(inner, answer) {
    this.inner = inner
    this.answer = answer
  }
  async start() {
    this.inner.onmessage = (message, extra) => {
      const reply = this.answer(message)
      if (reply) void this.inner.send(reply)
      else this.onmessage?.(message, extra)
    }
    this.inner.onclose = () => this.onclose?.()
    this.inner.onerror = (error) => this.onerror?.(error)
    await this.inner.start()
  }
  send(message, options) {
    return this.inner.send(message, options)
  }
  close() {
    return this.inner.close()
  }
}

/** The same server over Streamable HTTP (modern, via createMcpHandler) on 127.0.0.1. */
export async function startMrtrHttpServer({ rounds = 1 } = {}) {
  const handler = createMcpHandler(() => createMrtrServer({ rounds }))
  return serveFetch(handler)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const settings = Object.fromEntries(process.argv.slice(2).flatMap((arg) => (arg.includes('=') ? [[arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]] : [])))
  const switches = { ask: settings.ASK ?? '', bad: settings.BAD ?? '' }
  const transport = new AnsweringTransport(new StdioServerTransport(), (message) => handBuiltAnswer(message, switches))
  serveStdio(() => createMrtrServer({ rounds: Number(settings.ROUNDS ?? 1) }), { transport })
}
