// What the hand-written fixture servers share: the stdio loop of newline-delimited JSON-RPC, and
// the DNS-rebinding guard (MCP 2026-07-28 §4: a request whose Origin, when present, or Host is not
// a loopback name is refused with 403).
import { createInterface } from 'node:readline'

/** stdio: every request read from stdin answered on stdout with `reply(msg)` (a frame); notifications get nothing. */
export function serveStdioLines(reply) {
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (!line.trim()) return
    const msg = JSON.parse(line)
    if (msg.id === undefined) return
    process.stdout.write(JSON.stringify(reply(msg)) + '\n')
  })
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** A hostname from a Host header or an Origin URL; undefined when it cannot be read. */
function hostnameOf(value, asUrl) {
  try {
    return new URL(asUrl ? value : `http://${value}`).hostname
  } catch {
    return undefined
  }
}

/** Whether a request comes from a foreign page: an Origin, or a Host, that is not local. */
export function foreignRequest(req) {
  const origin = req.headers.origin
  return (origin !== undefined && !LOCAL_HOSTS.has(hostnameOf(origin, true))) || !LOCAL_HOSTS.has(hostnameOf(req.headers.host ?? '', false))
}

/** `send(status, body, headers)`: a JSON answer (no body when `body` is undefined). */
export const jsonSender = (res) => (status, body, headers = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body === undefined ? undefined : JSON.stringify(body))

/** The text of a POST from a local page; undefined when the request was answered instead (403 for a foreign Origin or Host, 405 for another method). */
export async function localPost(req, res) {
  const chunks = []
  for await (const c of req) chunks.push(c)
  const send = jsonSender(res)
  if (foreignRequest(req)) return void send(403, { jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: foreign Origin or Host' } })
  if (req.method !== 'POST') return void send(405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed' } })
  return Buffer.concat(chunks).toString('utf8')
}
