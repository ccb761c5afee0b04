#!/usr/bin/env node
// The travel server (the SDK's createMcpHandler) behind an OAuth resource server on 127.0.0.1, as
// the 2026-07-28 authorization spec wants it: a request without a token gets 401 with
// `WWW-Authenticate: Bearer resource_metadata="…", scope="…"`, the RFC 9728 document at
// /.well-known/oauth-protected-resource/mcp names this server and an authorization server, a token
// it did not issue gets 401 error="invalid_token", and READ_TOKEN's scope is too small for
// tools/call: 403 error="insufficient_scope". Prints its URL on stdout. Seeded defects (DEFECT,
// comma-separated): no-www-authenticate, basic-challenge, no-resource-metadata, no-metadata,
// root-metadata (the document at the root well-known URI, naming the origin), wrong-resource,
// prefix-resource, no-authorization-servers, accepts-any-token, forbidden-without-token,
// bare-403, scope-403-no-scope; open-discover (server/discover needs no token, every other request does).
import { createServer } from 'node:http'
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse
} from '@modelcontextprotocol/server'
import { createTravelServer } from '../../examples/server/server.mjs'

const defects = new Set((process.env.DEFECT ?? '').split(',').filter(Boolean))
const TOKEN = process.env.TOKEN ?? 'fixture-token'
const READ_TOKEN = process.env.READ_TOKEN ?? 'fixture-read-token'
const WELL_KNOWN = '/.well-known/oauth-protected-resource'

const handler = createMcpHandler(createTravelServer)
let base = ''

const metadataPath = () => (defects.has('root-metadata') ? WELL_KNOWN : `${WELL_KNOWN}/mcp`)
const metadataDocument = () => ({
  resource: defects.has('wrong-resource') ? 'https://elsewhere.example/mcp' : defects.has('prefix-resource') || defects.has('root-metadata') ? base : `${base}/mcp`,
  authorization_servers: defects.has('no-authorization-servers') ? [] : ['https://auth.example.com'],
  scopes_supported: ['mcp:read', 'mcp:write'],
  bearer_methods_supported: ['header']
})

/** The challenge, with these auth-params (and resource_metadata, unless the defect drops it). */
function challenge(params) {
  if (defects.has('basic-challenge')) return 'Basic realm="mcp"'
  const all = [...params, ...(defects.has('no-resource-metadata') ? [] : [`resource_metadata="${base}${metadataPath()}"`])]
  return `Bearer ${all.join(', ')}`
}

const server = createServer(async (req, res) => {
  const chunks = []
  for await (const c of req) chunks.push(c)
  const json = (status, body, headers = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
  const path = new URL(req.url, base).pathname
  if (req.method === 'GET' && path.startsWith('/.well-known/')) {
    if (path === metadataPath() && !defects.has('no-metadata')) return json(200, metadataDocument())
    return json(404, { error: 'not_found' })
  }
  const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]
  if (!token && !(defects.has('open-discover') && req.headers['mcp-method'] === 'server/discover')) {
    const status = defects.has('forbidden-without-token') ? 403 : 401
    const headers = defects.has('no-www-authenticate') ? {} : { 'www-authenticate': challenge(['scope="mcp:read"']) }
    return json(status, { error: 'unauthorized', error_description: 'A bearer token is required' }, headers)
  }
  if (token && token !== TOKEN && token !== READ_TOKEN && !defects.has('accepts-any-token')) {
    return json(401, { error: 'invalid_token' }, { 'www-authenticate': challenge(['error="invalid_token"', 'error_description="The token is not valid here"']) })
  }
  if (token === READ_TOKEN && req.headers['mcp-method'] === 'tools/call') {
    if (defects.has('bare-403')) return json(403, { error: 'forbidden' })
    const scope = defects.has('scope-403-no-scope') ? [] : ['scope="mcp:write"']
    return json(403, { error: 'insufficient_scope' }, { 'www-authenticate': challenge(['error="insufficient_scope"', ...scope]) })
  }
  const body = chunks.length ? Buffer.concat(chunks) : undefined
  const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body })
  const response =
    hostHeaderValidationResponse(request, localhostAllowedHostnames()) ?? originValidationResponse(request, localhostAllowedOrigins()) ?? (await handler.fetch(request))
  res.writeHead(response.status, Object.fromEntries(response.headers))
  if (response.body) for await (const chunk of response.body) res.write(chunk)
  res.end()
})

server.listen(0, '127.0.0.1', () => {
  base = `http://127.0.0.1:${server.address().port}`
  process.stdout.write(`${base}/mcp\n`)
})
