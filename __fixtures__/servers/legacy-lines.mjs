// The stdio loop of a hand-written 2025-11-25 (legacy) MCP fixture server: newline-delimited
// JSON-RPC, `initialize`, `tools/list`, `ping`; `tools/call` and unknown methods go to the
// server's own `call(name, args)` and `unknownMethod(method)`, each returning the answer's
// `result` or `error` (as `{ result }` / `{ error }`).
import { createInterface } from 'node:readline'

export function serveLegacyTools({ name, tools, call, unknownMethod = (method) => ({ error: { code: -32601, message: `Method not found: ${method}` } }) }) {
  const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n')
  const answer = (msg) => {
    switch (msg.method) {
      case 'initialize':
        return { result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name, version: '1.0.0' } } }
      case 'tools/list':
        return { result: { tools } }
      case 'tools/call':
        return call(msg.params.name, msg.params.arguments ?? {})
      case 'ping':
        return { result: {} }
      default:
        return unknownMethod(msg.method)
    }
  }
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (!line.trim()) return
    const msg = JSON.parse(line)
    if (msg.id !== undefined) send({ id: msg.id, ...answer(msg) })
  })
}
