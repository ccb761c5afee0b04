import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { createInterface } from 'node:readline'
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio'
import { spawnInGroup, terminateGroup } from '../mcp/process-group.js'

/**
 * Raw wire clients for the conformance probes. They do not use the SDK on purpose: the checks
 * must see raw frames (the SDK strips `resultType`, caches list results and hides headers).
 */

export interface JsonRpcError {
  code: number
  message: string
  data?: unknown
}

/** What came back for one request. */
export interface WireResponse {
  /** The JSON-RPC response object as received, or undefined on silence. */
  frame?: { id?: unknown; result?: Record<string, unknown>; error?: JsonRpcError; [key: string]: unknown }
  /** HTTP only. */
  status?: number
  headers?: Record<string, string>
  /** HTTP only: the raw body when it was not JSON-RPC. */
  body?: string
  timedOut?: boolean
  /** The process exited or the connection failed. */
  failure?: string
}

export interface Exchange {
  method: string
  request: Record<string, unknown>
  response: WireResponse
  /** Wall time from sending to the answer (or the timeout). */
  ms?: number
}

export interface WireRequest {
  method: string
  params?: Record<string, unknown>
}

/**
 * One stdio server process spoken to in newline-delimited JSON-RPC. It runs in its own process
 * group, so closing takes down a server started through a wrapper (`sh -c`, `npx`) too.
 */
export class StdioWire {
  private readonly child: ChildProcessWithoutNullStreams
  private readonly waiting = new Map<unknown, (frame: WireResponse['frame']) => void>()
  private nextId = 1
  private exited: string | undefined
  private stderr = ''

  constructor(command: string, args: string[], env: Record<string, string>, cwd?: string) {
    // All three stdio are pipes, so the streams are never null.
    this.child = spawnInGroup(command, args, { env: { ...getDefaultEnvironment(), ...env }, cwd, stdio: ['pipe', 'pipe', 'pipe'] }) as ChildProcessWithoutNullStreams
    this.child.on('error', (error) => this.fail(`could not start: ${error.message}`))
    this.child.on('exit', (code, signal) => this.fail(`exited (${signal ?? `code ${code}`})`))
    this.child.stdin.on('error', () => undefined)
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString('utf8')).slice(-2048)))
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      let frame: WireResponse['frame']
      try {
        frame = JSON.parse(line) as WireResponse['frame']
      } catch {
        return
      }
      const resolve = this.waiting.get(frame?.id)
      if (resolve) {
        this.waiting.delete(frame?.id)
        resolve(frame)
      }
    })
  }

  private fail(reason: string) {
    this.exited ??= reason
    for (const resolve of this.waiting.values()) resolve(undefined)
    this.waiting.clear()
  }

  async request(req: WireRequest, timeoutMs: number): Promise<Exchange> {
    const id = this.nextId++
    const started = performance.now()
    const request = { jsonrpc: '2.0', id, method: req.method, ...(req.params ? { params: req.params } : {}) }
    if (this.exited) return { method: req.method, request, response: { failure: `server ${this.exited}${this.stderrNote()}` } }
    let timer: NodeJS.Timeout | undefined
    const frame = await new Promise<WireResponse['frame'] | 'timeout'>((resolve) => {
      this.waiting.set(id, resolve)
      timer = setTimeout(() => resolve('timeout'), timeoutMs)
      this.child.stdin.write(`${JSON.stringify(request)}\n`)
    })
    clearTimeout(timer)
    this.waiting.delete(id)
    const ms = Math.round(performance.now() - started)
    if (frame === 'timeout') return { method: req.method, request, response: { timedOut: true }, ms }
    if (!frame) return { method: req.method, request, response: { failure: `server ${this.exited ?? 'closed'}${this.stderrNote()}` }, ms }
    return { method: req.method, request, response: { frame }, ms }
  }

  notify(method: string, params?: Record<string, unknown>): void {
    if (!this.exited) this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) })}\n`)
  }

  private stderrNote(): string {
    const tail = this.stderr.trim().split('\n').slice(-3).join(' | ')
    return tail ? `; stderr: ${tail}` : ''
  }

  /**
   * End stdin and terminate the whole group right away (SIGTERM, SIGKILL after a grace): a probe
   * has nothing left to say to the server, and a wrapper's leader exiting proves nothing about
   * its children. Safe to call twice.
   */
  async close(): Promise<void> {
    this.child.stdin.end()
    if (this.child.pid !== undefined) await terminateGroup(this.child.pid)
    // Whoever still holds the pipes (outside the group) must not keep us alive.
    this.child.stdout.destroy()
    this.child.stderr.destroy()
  }
}

/** Streamable HTTP: one POST per message, JSON or a per-request SSE stream in reply. */
export class HttpWire {
  private nextId = 1
  /** Legacy servers mint a session on initialize and want it back on every later request. */
  private legacySession: string | undefined
  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>
  ) {}

  /** A POST with the headers the spec requires for this request, unless `headerOverrides` changes them. */
  async request(req: WireRequest, timeoutMs: number, headerOverrides: Record<string, string | null> = {}): Promise<Exchange> {
    const id = this.nextId++
    const request = { jsonrpc: '2.0', id, method: req.method, ...(req.params ? { params: req.params } : {}) }
    const meta = (req.params?._meta ?? {}) as Record<string, unknown>
    const name = req.params?.name ?? req.params?.uri
    const headers: Record<string, string | null> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-method': req.method,
      ...(typeof meta['io.modelcontextprotocol/protocolVersion'] === 'string' ? { 'mcp-protocol-version': meta['io.modelcontextprotocol/protocolVersion'] as string } : {}),
      ...(typeof name === 'string' && ['tools/call', 'resources/read', 'prompts/get'].includes(req.method) ? { 'mcp-name': name } : {}),
      ...(this.legacySession ? { 'mcp-session-id': this.legacySession } : {}),
      ...lowerKeys(this.headers),
      ...lowerKeys(headerOverrides)
    }
    const started = performance.now()
    const response = await this.send('POST', JSON.stringify(request), headers, timeoutMs)
    const ms = Math.round(performance.now() - started)
    if (req.method === 'initialize' && response.headers?.['mcp-session-id']) this.legacySession = response.headers['mcp-session-id']
    // Evidence shows the protocol headers only: the user's own (authorization) stay out of it.
    const shown = Object.fromEntries(Object.entries(headers).filter(([k, v]) => v !== null && (k.startsWith('mcp-') || k === 'content-type')))
    return { method: req.method, request: { ...request, headers: shown }, response, ms }
  }

  /** Nothing to release: every request is its own exchange. */
  async close(): Promise<void> {}

  /** A request with another HTTP method (GET, DELETE) and no body. */
  async raw(method: string, timeoutMs: number): Promise<Exchange> {
    const started = performance.now()
    const response = await this.send(method, undefined, { accept: 'application/json, text/event-stream', ...lowerKeys(this.headers) }, timeoutMs)
    return { method: `HTTP ${method}`, request: { http: method }, response, ms: Math.round(performance.now() - started) }
  }

  private async send(method: string, body: string | undefined, headers: Record<string, string | null>, timeoutMs: number): Promise<WireResponse> {
    const clean: Record<string, string> = {}
    for (const [k, v] of Object.entries(headers)) if (v !== null) clean[k] = v
    try {
      const res = await fetch(this.url, { method, body, headers: clean, signal: AbortSignal.timeout(timeoutMs) })
      const text = await res.text()
      const responseHeaders: Record<string, string> = {}
      res.headers.forEach((value, key) => (responseHeaders[key] = value))
      const frame = parseBody(text, res.headers.get('content-type') ?? '')
      return { status: res.status, headers: responseHeaders, ...(frame ? { frame } : { body: text.slice(0, 2000) }) }
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') return { timedOut: true }
      return { failure: `request failed: ${(error as Error).message}` }
    }
  }
}

/** A JSON body, or the first JSON-RPC response in an SSE stream's `data:` frames. */
function parseBody(text: string, contentType: string): WireResponse['frame'] | undefined {
  const tryJson = (s: string) => {
    try {
      const value = JSON.parse(s) as unknown
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as WireResponse['frame']) : undefined
    } catch {
      return undefined
    }
  }
  if (contentType.includes('text/event-stream')) {
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n')
      const frame = data ? tryJson(data) : undefined
      if (frame && ('result' in frame || 'error' in frame)) return frame
    }
    return undefined
  }
  return text.trim() ? tryJson(text) : undefined
}

function lowerKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k.toLowerCase(), v]))
}

/** A short, single-line rendering for evidence. */
export function trimEvidence(value: unknown, max = 600): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > max ? `${text.slice(0, max)}…` : text
}
