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
