import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio'
import { describeSpawnError } from '../util/command-lookup.js'
import { frameTooLong, screenFrame } from '../mcp/frame-screen.js'
import { spawnInGroup, terminateGroup } from '../mcp/process-group.js'
import { BodyLimitError, boundedFetch } from '../util/bounded-fetch.js'
import { FrameLines } from '../util/read-limits.js'
import { MAX_STREAM_MESSAGES, TOO_DEEP_ANSWER, answer, networkFailure, nodePost, present } from './wire-body.js'
import { meaningfulTail } from '../util/stderr-tail.js'

/**
 * Raw wire clients for the conformance probes. They do not use the SDK on purpose: the checks
 * must see raw frames (the SDK strips `resultType`, caches list results and hides headers).
 * They read within the same limits as the sessions: a stdio line of at most MAX_FRAME_BYTES (a
 * longer one fails the connection), an HTTP body of at most MAX_BODY_BYTES after decompression,
 * nothing nested deeper than MAX_JSON_DEPTH (that answer is a failure, not a frame); and a
 * redirect is followed only within the endpoint's origin, so its headers never go elsewhere.
 */

export type { Exchange, JsonRpcError, WireRequest, WireResponse } from './wire-types.js'
import type { Exchange, WireRequest, WireResponse } from './wire-types.js'

/**
 * How long a server that wrote something other than JSON-RPC to stdout gets to send a valid
 * message anyway. A startup banner followed by real traffic is tolerated (the SDK ignores such
 * lines too); a server that only ever prints "listening on :3000" (started in HTTP mode by
 * mistake) fails after this instead of after every request's timeout.
 */
export const STDOUT_NOISE_GRACE_MS = 1000
const NOISE_LINES_KEPT = 3

/** `"listening on :3000", "ready"`: the lines quoted for a message. */
export function quoteLines(lines: string[]): string {
  return lines.map((line) => JSON.stringify(line)).join(', ')
}

/** Redirects followed within the origin, at most. */
const MAX_REDIRECTS = 5

/** What one line of a stdio server is: a JSON-RPC 2.0 frame, one too deep to read (its id), or other output. */
type Line = { frame: NonNullable<WireResponse['frame']> } | { tooDeep: true; id: unknown } | undefined

/** A line that is a JSON-RPC 2.0 message (as it came; both result and error are evidence here), one too deep to keep, or undefined (plain text, a JSON log line, an array). */
function parseLine(line: string): Line {
  const screened = screenFrame(line)
  if (screened.kind === 'other') return undefined
  if (screened.kind === 'frame') return { frame: screened.frame as NonNullable<WireResponse['frame']> }
  if (screened.frame) return { frame: screened.frame as NonNullable<WireResponse['frame']> }
  return { tooDeep: true, id: screened.answer?.id }
}

/** An answer a server sent again for a request it had already answered (JSON-RPC 2.0: one response per request). */
export interface RepeatedAnswer {
  id: unknown
  method: string
}

/**
 * One stdio server process spoken to in newline-delimited JSON-RPC. It runs in its own process
 * group, so closing takes down a server started through a wrapper (`sh -c`, `npx`) too.
 */
export class StdioWire {
  private readonly child: ChildProcessWithoutNullStreams
  private readonly waiting = new Map<unknown, (frame: WireResponse['frame'] | typeof TOO_DEEP_ANSWER) => void>()
  /** Ids we stopped waiting for: a late answer to one of them must not be taken for another's. */
  private readonly abandoned = new Set<unknown>()
  /** The method of every request sent, by id, and the ids already answered: a second answer is a repeat, never another request's. */
  private readonly sent = new Map<unknown, string>()
  private readonly answered = new Set<unknown>()
  private nextId = 1
  private failure: { reason: string; cause: string } | undefined
  private stderr = ''
  /** A JSON-RPC message has arrived: stray stdout lines after it are tolerated (servers log there by mistake mid-run). */
  private framed = false
  private readonly noise: string[] = []
  private noiseTimer: NodeJS.Timeout | undefined
  /** The requests in flight, each collecting the messages (notifications, server requests) that arrive meanwhile. */
  private readonly inFlight = new Map<unknown, { messages: Record<string, unknown>[]; logs: boolean; onMessage?: () => void }>()

  constructor(
    command: string,
    args: string[],
    env: Record<string, string>,
    cwd?: string,
    private readonly onRepeated: (answer: RepeatedAnswer) => void = () => undefined
  ) {
    // All three stdio are pipes, so the streams are never null.
    this.child = spawnInGroup(command, args, { env: { ...getDefaultEnvironment(), ...env }, cwd, stdio: ['pipe', 'pipe', 'pipe'] }) as ChildProcessWithoutNullStreams
    this.child.on('error', (error: NodeJS.ErrnoException) => this.fail(`could not start: ${describeSpawnError(command, error, cwd)}`, error.code ?? error.message))
    this.child.on('exit', (code, signal) => this.fail(`exited (${signal ?? `code ${code}`})`, signal ? `killed by ${signal}` : `exited with code ${code}`))
    this.child.stdin.on('error', () => undefined)
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4096)))
    const lines = new FrameLines()
    this.child.stdout.on('data', (chunk: Buffer) => {
      if (lines.overflowed) return
      for (const line of lines.push(chunk)) this.receive(line.toString('utf8'))
      if (!lines.overflowed) return
      // Nothing more is read: the server may block on its pipe until close() ends it.
      this.child.stdout.pause()
      this.fail(`wrote ${frameTooLong(lines.maxBytes)} on one line of stdout (not read further)`, 'message too long')
    })
  }

  private receive(line: string) {
    const parsed = parseLine(line)
    if (!parsed) return this.noticeNoise(line)
    this.framed = true
    clearTimeout(this.noiseTimer)
    const frame = 'frame' in parsed ? parsed.frame : undefined
    if (frame && typeof frame.method === 'string') {
      // A notification or a request of the server's: no answer to anything, kept with the requests in flight it may belong to.
      for (const flight of this.recipients(frame)) {
        if (flight.messages.length < MAX_STREAM_MESSAGES) flight.messages.push(frame)
        flight.onMessage?.()
      }
      return
    }
    let id = frame ? frame.id : (parsed as { id: unknown }).id
    let resolve = this.waiting.get(id)
    if (!resolve && this.answered.has(id)) return this.onRepeated({ id, method: this.sent.get(id) ?? '' })
    if (!resolve && !this.abandoned.has(id) && (!frame || 'result' in frame || 'error' in frame) && this.waiting.size === 1) {
      // An answer with an id we never sent (often null on an error): with one request in flight it
      // can only be that one's. Kept, so the error-response-id check sees the wrong id.
      ;[[id, resolve]] = this.waiting
    }
    if (resolve) {
      this.waiting.delete(id)
      this.answered.add(id)
      resolve(frame ?? TOO_DEEP_ANSWER)
    }
  }

  /**
   * Which in-flight requests a server message is kept with (stdio has one channel for all): a
   * listen stream's notification with its subscription alone (`io.modelcontextprotocol/subscriptionId`
   * names it); a log notification with the requests that asked for logs (`logLevel` in `_meta`)
   * when one is in flight; anything else with every request in flight (the same object: whoever
   * counts messages counts each once).
   */
  private recipients(frame: Record<string, unknown>) {
    const meta = (frame.params as { _meta?: Record<string, unknown> } | undefined)?._meta
    const own = this.inFlight.get(meta?.['io.modelcontextprotocol/subscriptionId'])
    if (own) return [own]
    const all = [...this.inFlight.values()]
    const logging = frame.method === 'notifications/message' ? all.filter((f) => f.logs) : []
    return logging.length ? logging : all
  }

  /** stdio: the server MUST NOT write anything to stdout that is not an MCP message. */
  private noticeNoise(line: string) {
    if (this.framed || this.failure || line.trim() === '') return
    if (this.noise.length < NOISE_LINES_KEPT) this.noise.push(line.trim().slice(0, 200))
    this.noiseTimer ??= setTimeout(
      () => this.fail(`wrote to stdout what is not JSON-RPC: ${quoteLines(this.noise)}`, 'non-JSON-RPC output on stdout'),
      STDOUT_NOISE_GRACE_MS
    )
  }

  private fail(reason: string, cause: string) {
    this.failure ??= { reason, cause }
    for (const resolve of this.waiting.values()) resolve(undefined)
    this.waiting.clear()
  }

  /** The failure as a response: the reason, and what the server said on its way out. */
  private failed(): WireResponse {
    const stderr = meaningfulTail(this.stderr)
    const alone = `server ${this.failure?.reason ?? 'closed'}`
    return {
      failure: `${alone}${stderr ? `; stderr: ${stderr.split('\n').join(' | ')}` : ''}`,
      failureAlone: alone,
      cause: this.failure?.cause ?? 'closed',
      ...(stderr ? { stderr } : {}),
      ...(this.noise.length ? { stdout: this.noise.join('\n') } : {})
    }
  }

  /** `afterFirstMs`: a stream's window — the timeout becomes this much after the first message the request gets (a listen's acknowledgement), so a slow start is not held against the window. */
  async request(req: WireRequest, timeoutMs: number, afterFirstMs?: number): Promise<Exchange> {
    const id = this.nextId++
    const started = performance.now()
    const request = { jsonrpc: '2.0', id, method: req.method, ...(req.params ? { params: req.params } : {}) }
    if (this.failure) return { method: req.method, request, response: this.failed() }
    this.sent.set(id, req.method)
    const messages: Record<string, unknown>[] = []
    const flight: { messages: Record<string, unknown>[]; logs: boolean; onMessage?: () => void } = { messages, logs: (req.params?._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/logLevel'] !== undefined }
    this.inFlight.set(id, flight)
    let timer: NodeJS.Timeout | undefined
    const frame = await new Promise<WireResponse['frame'] | typeof TOO_DEEP_ANSWER | 'timeout'>((resolve) => {
      this.waiting.set(id, resolve)
      timer = setTimeout(() => resolve('timeout'), timeoutMs)
      if (afterFirstMs !== undefined) {
        flight.onMessage = () => {
          flight.onMessage = undefined
          clearTimeout(timer)
          timer = setTimeout(() => resolve('timeout'), afterFirstMs)
        }
      }
      this.child.stdin.write(`${JSON.stringify(request)}\n`)
    })
    clearTimeout(timer)
    this.waiting.delete(id)
    this.inFlight.delete(id)
    const others = messages.length ? { messages } : {}
    const ms = Math.round(performance.now() - started)
    if (frame === 'timeout') {
      this.abandoned.add(id)
      return { method: req.method, request, response: { timedOut: true, ...(this.noise.length ? { stdout: this.noise.join('\n') } : {}), ...others }, ms }
    }
    if (!frame) return { method: req.method, request, response: { ...this.failed(), ...others }, ms }
    if (frame === TOO_DEEP_ANSWER) return { method: req.method, request, response: { ...TOO_DEEP_ANSWER, ...others }, ms }
    return { method: req.method, request, response: { frame, ...others }, ms }
  }

  /** A request held open as a stream: its timeout becomes `afterFirstMs` after its first message. */
  listen(req: WireRequest, timeoutMs: number, afterFirstMs: number): Promise<Exchange> {
    return this.request(req, timeoutMs, afterFirstMs)
  }

  notify(method: string, params?: Record<string, unknown>): void {
    if (!this.failure) this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) })}\n`)
  }

  /**
   * End stdin and terminate the whole group right away (SIGTERM, SIGKILL after a grace): a probe
   * has nothing left to say to the server, and a wrapper's leader exiting proves nothing about
   * its children. Safe to call twice.
   */
  async close(): Promise<void> {
    clearTimeout(this.noiseTimer)
    this.child.stdin.end()
    if (this.child.pid !== undefined) await terminateGroup(this.child.pid)
    // Whoever still holds the pipes (outside the group) must not keep us alive.
    this.child.stdout.destroy()
    this.child.stderr.destroy()
  }
}

/** Headers shown in evidence: the protocol's own, never the user's (authorization stays out). */
const SHOWN_HEADERS = /^(mcp-|content-type$|origin$|host$)/

/** Streamable HTTP: one POST per message, JSON or a per-request SSE stream in reply. */
export class HttpWire {
  private nextId = 1
  /** Legacy servers mint a session on initialize and want it back on every later request. */
  private legacySession: string | undefined
  /** The version a legacy initialize answered: 2025-06-18+ wants it in MCP-Protocol-Version on every later request. */
  private legacyVersion: string | undefined
  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>
  ) {}

  /** The headers the spec requires for this request, then the user's, the request's own, and `overrides` (null drops one). */
  private headersFor(req: WireRequest, overrides: Record<string, string | null>): Record<string, string | null> {
    const meta = (req.params?._meta ?? {}) as Record<string, unknown>
    const name = req.params?.name ?? req.params?.uri
    const version = typeof meta['io.modelcontextprotocol/protocolVersion'] === 'string' ? (meta['io.modelcontextprotocol/protocolVersion'] as string) : this.legacyVersion
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-method': req.method,
      ...(version ? { 'mcp-protocol-version': version } : {}),
      ...(typeof name === 'string' && ['tools/call', 'resources/read', 'prompts/get'].includes(req.method) ? { 'mcp-name': name } : {}),
      ...(this.legacySession ? { 'mcp-session-id': this.legacySession } : {}),
      ...lowerKeys(this.headers),
      ...lowerKeys(req.headers ?? {}),
      ...lowerKeys(overrides)
    }
  }

  /** The POST `request` would send, not sent: for a reader of a long-lived stream (wire-listen.ts). */
  prepare(req: WireRequest, headerOverrides: Record<string, string | null> = {}): { url: string; request: Record<string, unknown>; headers: Record<string, string>; shown: Record<string, string> } {
    const request = { jsonrpc: '2.0', id: this.nextId++, method: req.method, ...(req.params ? { params: req.params } : {}) }
    const headers = this.headersFor(req, headerOverrides)
    return { url: this.url, request, headers: present(headers), shown: shownHeaders(headers) }
  }

  /** A POST with the headers the spec requires for this request, unless `headerOverrides` changes them. */
  async request(req: WireRequest, timeoutMs: number, headerOverrides: Record<string, string | null> = {}): Promise<Exchange> {
    const id = this.nextId++
    const request = { jsonrpc: '2.0', id, method: req.method, ...(req.params ? { params: req.params } : {}) }
    const headers = this.headersFor(req, headerOverrides)
    const started = performance.now()
    const response = await this.send('POST', JSON.stringify(request), headers, timeoutMs)
    const ms = Math.round(performance.now() - started)
    if (req.method === 'initialize') {
      if (response.headers?.['mcp-session-id']) this.legacySession = response.headers['mcp-session-id']
      const version = response.frame?.result?.protocolVersion
      if (typeof version === 'string') this.legacyVersion = version
    }
    return { method: req.method, request: { ...request, headers: shownHeaders(headers) }, response, ms }
  }

  /**
   * The same POST through node:http, which (unlike fetch) lets us set Host: the DNS-rebinding
   * probes need a foreign Host and Origin. A session a legacy server mints for it is ended at once.
   */
  async requestWithHost(req: WireRequest, timeoutMs: number, headerOverrides: Record<string, string | null>): Promise<Exchange> {
    const id = this.nextId++
    const request = { jsonrpc: '2.0', id, method: req.method, ...(req.params ? { params: req.params } : {}) }
    const headers = this.headersFor(req, headerOverrides)
    const started = performance.now()
    const response = await nodePost(this.url, JSON.stringify(request), headers, timeoutMs)
    const ms = Math.round(performance.now() - started)
    const minted = response.headers?.['mcp-session-id']
    if (minted) await this.terminateSession(minted)
    return { method: req.method, request: { ...request, headers: shownHeaders(headers) }, response, ms }
  }

  /**
   * Every request is its own exchange, except a legacy session: 2025-11-25 clients that no
   * longer need one SHOULD end it with DELETE, or the server keeps it (and its state) until
   * it expires. Safe to call twice.
   */
  async close(): Promise<void> {
    const session = this.legacySession
    this.legacySession = undefined
    if (session) await this.terminateSession(session)
  }

  private async terminateSession(session: string): Promise<void> {
    const headers = { ...lowerKeys(this.headers), 'mcp-session-id': session, ...(this.legacyVersion ? { 'mcp-protocol-version': this.legacyVersion } : {}) }
    await this.send('DELETE', undefined, headers, 2000)
  }

  /** A request with another HTTP method (GET, DELETE) and no body. */
  async raw(method: string, timeoutMs: number): Promise<Exchange> {
    const started = performance.now()
    const response = await this.send(method, undefined, { accept: 'application/json, text/event-stream', ...lowerKeys(this.headers) }, timeoutMs)
    return { method: `HTTP ${method}`, request: { http: method }, response, ms: Math.round(performance.now() - started) }
  }

  /**
   * One request, its body bounded. A redirect is followed only when it stays within the origin
   * and keeps the method (a GET, or 307/308), at most MAX_REDIRECTS times; any other is the
   * answer, a failure that says where it pointed, and the headers went nowhere else.
   */
  private async send(method: string, body: string | undefined, headers: Record<string, string | null>, timeoutMs: number): Promise<WireResponse> {
    try {
      const signal = AbortSignal.timeout(timeoutMs)
      let url = new URL(this.url)
      for (let followed = 0; ; followed++) {
        const res = await serverFetch(url, { method, body, headers: present(headers), signal, redirect: 'manual' })
        const responseHeaders: Record<string, string> = {}
        res.headers.forEach((value, key) => (responseHeaders[key] = value))
        const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null
        if (location === null) return answer(res.status, responseHeaders, await res.text())
        await res.body?.cancel()
        const target = new URL(location, url)
        const refusal = unfollowed(url, target, method, res.status, followed)
        if (refusal) return { status: res.status, headers: responseHeaders, failure: refusal, cause: 'redirect not followed' }
        url = target
      }
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') return { timedOut: true }
      if (error instanceof BodyLimitError) return { failure: error.message, cause: 'answer too long' }
      return networkFailure(error)
    }
  }
}

/** The raw probes' fetch: every body bounded (MAX_BODY_BYTES after decompression). */
const serverFetch = boundedFetch((url: URL, init?: RequestInit) => fetch(url, init), 'server')

/** Why a redirect from `from` to `target` is not followed; undefined when it may be. */
function unfollowed(from: URL, target: URL, method: string, status: number, followed: number): string | undefined {
  const where = `${target.origin}${target.pathname}`
  if (target.origin !== from.origin) return `HTTP ${status} redirect to another origin (${where}) not followed: the configured headers are sent to the endpoint's origin only`
  if (method !== 'GET' && status !== 307 && status !== 308) return `HTTP ${status} redirect (to ${where}) not followed: it would turn the ${method} into a GET`
  if (followed >= MAX_REDIRECTS) return `more than ${MAX_REDIRECTS} redirects (the last to ${where}): not followed`
  return undefined
}

function shownHeaders(headers: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(present(headers)).filter(([k]) => SHOWN_HEADERS.test(k)))
}

function lowerKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k.toLowerCase(), v]))
}
