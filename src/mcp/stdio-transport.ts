import { PassThrough, type Stream, type Writable } from 'node:stream'
import { parseJSONRPCMessage, SdkError, SdkErrorCode, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client'
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio'
import { FrameLines, MAX_FRAME_BYTES } from '../util/read-limits.js'
import { frameTooLong, refusedAnswer, screenFrame } from './frame-screen.js'
import { terminateGroup } from './process-group.js'
import { spawnServer, type ServerProcess } from './spawner.js'

/** The SDK's StdioServerParameters, minus stream and fd values for stderr (we never pass them). */
export interface GroupStdioParameters {
  command: string
  args?: string[]
  /** The server's whole environment; the SDK's safe defaults when absent. */
  env?: Record<string, string>
  cwd?: string
  /** Default 'inherit', as in the SDK. */
  stderr?: 'pipe' | 'ignore' | 'inherit'
  /** The longest line (one JSON-RPC message) read from stdout; MAX_FRAME_BYTES (64 MiB) when absent. */
  maxBufferSize?: number
}

/** How long close() lets the server leave on its own after stdin ends. */
const CLOSE_GRACE_MS = 500
/**
 * How long a server that wrote something other than JSON-RPC to stdout before its first message
 * gets to send a valid one. A startup banner followed by real traffic is tolerated; a server that
 * only ever prints "listening on :3000" (started in HTTP mode by mistake) fails after this,
 * instead of every request waiting out its timeout.
 */
const STDOUT_NOISE_GRACE_MS = 1000
/** Lines of such output quoted in the error. */
const NOISE_LINES_QUOTED = 3
/** How long a terminated group has for SIGTERM before SIGKILL. */
const TERM_GRACE_MS = 1000
/** Unanswered requests remembered (a session has a handful in flight; this only bounds a runaway). */
const OUTSTANDING_LIMIT = 1024

/**
 * The SDK's StdioClientTransport, but the server runs in its own process group and every way the
 * transport ends terminates the whole group, so a server behind a wrapper (`sh -c`, `npx`,
 * `uv run`) cannot outlive us. Framing is the SDK's (newline-delimited, serializeMessage,
 * parseJSONRPCMessage), read by our own bounded reader in place of its ReadBuffer. The
 * server is spawned by the spawner helper when it is up (src/mcp/spawner.ts: a fork of this large
 * process would block us), its stdin and stdout then one Unix socket held by us; the events,
 * errors and group handling are the same either way.
 *
 * Why the underscored members: with `versionNegotiation: { mode: 'auto' }` the SDK Client (pinned
 * at 2.4.0) sends `server/discover` to a disposable sibling process for a transport it recognizes
 * by duck typing (`stderr` and `pid` present, an own `_dispose` on the prototype, `_serverParams`
 * with a `command`): it spawns the sibling with `new transport.constructor({ ..._serverParams,
 * stderr: 'ignore' })` and reaps it with `sibling._dispose()`. Sessions no longer let it: they
 * hand the SDK this transport without `_serverParams` (probedInPlace in open-session.ts), so the
 * era is learned on the session's own process, or taken from the conformance probe as `prior`,
 * and a legacy server that exits on the probe is opened again as legacy. The members stay as the SDK
 * expects them, so a Client given the bare transport still behaves (an SDK upgrade must re-check
 * the contract; the process tree tests count the processes).
 *
 * Reading is bounded: stdout is split into lines of at most MAX_FRAME_BYTES, and a longer one
 * ends the session (every request still waiting gets an error answer that says so, then the
 * group is terminated) without the line ever being held whole. Each line is screened
 * (src/mcp/frame-screen.ts): an answer nested deeper than MAX_JSON_DEPTH, or with both `result`
 * and `error`, fails its request at once; a server request nested too deep is dropped.
 *
 * stdout that is not JSON-RPC: the SDK's reader skips such lines silently, so a server that
 * never speaks JSON-RPC (started in HTTP mode, printing "listening on :3000") made every request
 * wait for its timeout. Before the first JSON-RPC message, a non-JSON-RPC line starts a short
 * grace; if no message comes, the transport fails with an Error quoting the lines. Sends made
 * before the first message settle only once the server has proven it speaks JSON-RPC, so that
 * Error rejects the pending request (connect, or the SDK's discover probe) at once, instead of a
 * bare "Connection closed". After the first message such lines are ignored, as the SDK does:
 * many servers log to stdout by mistake mid-run, and failing a working session for it would be
 * worse than the noise.
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  /** Read by the SDK's sibling probe: the parameters the sibling is spawned from. */
  readonly _serverParams: GroupStdioParameters
  private child: ServerProcess | undefined
  /** Settles when the spawn did (started or failed): a close during it waits, then ends what started. */
  private spawned: Promise<void> | undefined
  private readonly lines: FrameLines
  /** Requests we sent that are not answered yet: each gets an error answer if the stream has to be given up. */
  private readonly outstanding = new Set<unknown>()
  /** Handed out before start() so no early stderr is lost, like the SDK does. */
  private readonly stderrStream: PassThrough | null
  private closing: Promise<void> | undefined
  private closeReported = false
  /** A JSON-RPC message has arrived: the server speaks the protocol on stdout. */
  private framed = false
  private readonly noise: string[] = []
  private noiseTimer: NodeJS.Timeout | undefined
  /** Set when the server wrote only non-JSON-RPC to stdout: later sends reject with it. */
  private stdoutFailure: Error | undefined
  /** Settles the sends made before the first message: resolved by it (or by the close), rejected by stdoutFailure. */
  private readonly firstMessage: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void }

  constructor(params: GroupStdioParameters) {
    this._serverParams = params
    this.lines = new FrameLines(params.maxBufferSize ?? MAX_FRAME_BYTES)
    this.stderrStream = params.stderr === 'pipe' ? new PassThrough() : null
    let resolve!: () => void
    let reject!: (error: Error) => void
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)))
    // Nobody may be waiting on it when it rejects.
    promise.catch(() => undefined)
    this.firstMessage = { promise, resolve, reject }
  }

  get pid(): number | null {
    return this.child?.pid ?? null
  }

  get stderr(): Stream | null {
    return this.stderrStream ?? this.child?.stderr ?? null
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('GroupStdioTransport already started'))
    // Closed before it started (the SDK closes a transport whose discover probe was aborted):
    // spawning now would start a server nobody will ever close.
    if (this.closing) return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'GroupStdioTransport was closed before it started'))
    const params = this._serverParams
    return new Promise((resolve, reject) => {
      // From the spawner helper (src/mcp/spawner.ts), or directly: the same events either way.
      const child = spawnServer({ command: params.command, args: params.args ?? [], env: params.env ?? getDefaultEnvironment(), cwd: params.cwd, stderr: params.stderr ?? 'inherit' })
      this.child = child
      this.spawned = new Promise((settled) => {
        child.once('spawn', settled)
        child.once('error', settled)
      })
      child.on('error', (error) => {
        reject(error)
        this.onerror?.(error)
      })
      child.on('spawn', () => resolve())
      // 'close' = exited and every pipe closed: the server is gone for us.
      child.on('close', () => this.reportClose())
      // A direct child has its pipes now; the helper's sockets come with 'spawn'.
      if (child.stdout) this.listen(child)
      else child.once('spawn', () => this.listen(child))
    })
  }

  private listen(child: ServerProcess) {
    // stdin and stdout are one socket when the helper spawned the server: one error, reported once.
    for (const stream of new Set([child.stdin, child.stdout])) stream?.on('error', (error: Error) => this.onerror?.(error))
    child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk))
    if (this.stderrStream && child.stderr) child.stderr.pipe(this.stderrStream)
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.stdoutFailure) return Promise.reject(this.stdoutFailure)
    const stdin = this.closing ? undefined : this.child?.stdin
    if (!stdin || stdin.destroyed) return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'))
    const frame = message as Record<string, unknown>
    if (typeof frame.method === 'string' && frame.id !== undefined && this.outstanding.size < OUTSTANDING_LIMIT) this.outstanding.add(frame.id)
    const written = this.write(stdin, message)
    return this.framed ? written : written.then(() => this.firstMessage.promise)
  }

  private write(stdin: Writable, message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) return resolve()
      // A pipe that closes while full never drains: do not leave the sender waiting.
      const done = () => {
        stdin.off('drain', done)
        stdin.off('close', done)
        resolve()
      }
      stdin.on('drain', done)
      stdin.on('close', done)
    })
  }

  /**
   * End stdin and give the server a moment to leave by itself, then terminate its group anyway:
   * the leader may have exited (a wrapper) while grandchildren of ours still run.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown(CLOSE_GRACE_MS)
    return this.closing
  }

  /** The SDK's sibling reaper (see the class comment): no polite wait, signal the group at once. */
  _dispose(): Promise<void> {
    this.closing ??= this.shutDown(0)
    return this.closing
  }

  private async shutDown(politeMs: number): Promise<void> {
    clearTimeout(this.noiseTimer)
    // Sends still waiting for a first message were written: the close, not them, is what failed.
    this.firstMessage.resolve()
    const child = this.child
    // A spawn still in flight (the helper's): wait for it, so what it starts is ended too.
    await this.spawned
    if (child?.pid !== undefined) {
      try {
        child.stdin?.end()
      } catch {
        // A broken pipe: the server is already leaving.
      }
      if (politeMs > 0) await leaderExit(child, politeMs)
      await terminateGroup(child.pid, TERM_GRACE_MS)
      await leaderExit(child, TERM_GRACE_MS)
    }
    // Helpers outside the group (a server that called setsid) may still hold the pipes: let go.
    child?.stdin?.destroy()
    child?.stdout?.destroy()
    child?.stderr?.destroy()
    this.lines.clear()
    this.reportClose()
  }

  private receive(chunk: Buffer) {
    if (this.lines.overflowed) return
    for (const line of this.lines.push(chunk)) this.receiveLine(line.toString('utf8'))
    if (this.lines.overflowed) this.giveUp(`${frameTooLong(this.lines.maxBytes)} on one line of stdout; the session was ended`)
  }

  private receiveLine(line: string) {
    if (line.trim() === '') return
    const screened = screenFrame(line)
    if (screened.kind === 'other') {
      // JSON that is not JSON-RPC is reported, as the SDK's reader does; plain text is not.
      if (screened.json) this.onerror?.(new Error('the server wrote JSON that is not a JSON-RPC 2.0 message to stdout'))
      return this.noticeNoise(line)
    }
    let message: JSONRPCMessage
    if (screened.kind === 'refused') {
      this.onerror?.(new Error(`the server's message was not read: ${screened.reason}`))
      if (!screened.answer) return
      message = screened.answer as JSONRPCMessage
    } else {
      try {
        message = parseJSONRPCMessage(screened.frame)
      } catch (error) {
        // Valid JSON-RPC 2.0 the SDK cannot take; it reports it and goes on with the next line.
        return void this.onerror?.(error as Error)
      }
    }
    if (!this.framed) {
      this.framed = true
      clearTimeout(this.noiseTimer)
      this.firstMessage.resolve()
    }
    const frame = message as Record<string, unknown>
    if (frame.method === undefined) this.outstanding.delete(frame.id)
    this.onmessage?.(message)
  }

  /** The stream can no longer be read: every request still waiting fails with the reason, then the session ends. */
  private giveUp(reason: string) {
    for (const id of this.outstanding) this.onmessage?.(refusedAnswer(id, reason) as JSONRPCMessage)
    this.outstanding.clear()
    this.onerror?.(new Error(`the server's output was not read further: ${reason}`))
    void this.close()
  }

  /** Before the first message: note lines that are not JSON-RPC, and start the grace on the first. */
  private noticeNoise(line: string) {
    if (this.framed) return
    if (this.noise.length < NOISE_LINES_QUOTED) this.noise.push(line.trim().slice(0, 200))
    this.noiseTimer ??= setTimeout(() => this.failOnNoise(), STDOUT_NOISE_GRACE_MS)
  }

  private failOnNoise() {
    if (this.framed || this.closing) return
    this.stdoutFailure = new Error(`the server wrote to stdout what is not JSON-RPC: ${this.noise.map((line) => JSON.stringify(line)).join(', ')}`)
    this.firstMessage.reject(this.stdoutFailure)
    this.onerror?.(this.stdoutFailure)
    void this.close()
  }

  private reportClose() {
    this.firstMessage.resolve()
    if (this.closeReported) return
    this.closeReported = true
    this.onclose?.()
  }
}

/** Resolves when the leader has exited, or after `ms`. */
function leaderExit(child: ServerProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}
