import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { adoptGroup, spawnInGroup } from './process-group.js'
import { SPAWNER_SCRIPT } from './spawner-script.js'

/**
 * Where stdio servers are spawned from.
 *
 * Node spawns with fork(): the whole process's page tables are copied, on the main thread, before
 * the child can exec. For a harness holding a few hundred MB that is ~13 ms per server at 230 MB
 * RSS (measured: 12.9 s of a 1,000-run evaluation's main thread), and it grows with memory. So
 * servers are spawned by a small helper process instead (SPAWNER_SCRIPT: built-ins only, ~40 MB),
 * whose forks cost the same whatever the harness holds; the main thread only sends a message.
 *
 * No byte is relayed: the harness listens on a Unix socket, the helper connects to it and hands
 * that connection to the server as its stdin and stdout (and a second one as its stderr), so the
 * harness holds a socket straight to the server. The server is spawned `detached`, leading its
 * own process group as before, and its group is registered with process-group.ts, which
 * signals it directly (no helper in the way); the helper reports the pid and the exit.
 *
 * The helper starts at the first spawn; the spawns made while it boots (and every spawn on
 * Windows, where there are no process groups, or when the helper cannot start) are direct, as
 * before. It is retired after a moment with nothing running and started again when needed, so
 * an idle harness (or a jest worker) keeps no extra process.
 */

/** What a server is spawned with: resolved GroupStdioParameters. */
export interface ServerSpawn {
  command: string
  args: readonly string[]
  env: Record<string, string>
  cwd?: string
  stderr: 'pipe' | 'ignore' | 'inherit'
}

/**
 * A server process, as GroupStdioTransport uses it: a ChildProcess, or one the helper spawned.
 * The same events ('spawn', 'error', 'exit', 'close') in the same order. The streams may be null
 * until 'spawn' (the helper's sockets arrive with it); stdin and stdout may be one socket.
 */
export interface ServerProcess extends EventEmitter {
  readonly pid?: number | undefined
  readonly stdin: Writable | null
  readonly stdout: Readable | null
  readonly stderr: Readable | null
  readonly exitCode: number | null
  readonly signalCode: NodeJS.Signals | null
}

/** Spawn one stdio server: through the helper when it is up, directly otherwise. Never throws for a failed spawn: 'error' says it. */
export function spawnServer(spec: ServerSpawn): ServerProcess {
  const helper = helperReady()
  if (helper) return helper.spawn(spec)
  return spawnInGroup(spec.command, spec.args, { env: spec.env, cwd: spec.cwd, stdio: ['pipe', 'pipe', spec.stderr] })
}

/** How long the helper stays up with nothing running or starting. */
const IDLE_MS = 2000
/**
 * A connection that has not named its spawn within this long is not one of ours. Long: the
 * directory is private (only our helper connects), and after a stall of the main thread (a long
 * GC, a starved runner) the timer fires before the token, already sent, is read.
 */
const TOKEN_WAIT_MS = 60_000
const TOKEN_BYTES = 16
/** The longest Unix socket path every POSIX system takes (sun_path is 104 bytes on macOS, 108 on Linux). */
const MAX_SOCKET_PATH = 100

let helper: SpawnerHelper | null = null
/** Booting, up, or given up on (it could not start, or crashed: direct spawns from then on). */
let state: 'absent' | 'booting' | 'ready' | 'unavailable' = process.platform === 'win32' ? 'unavailable' : 'absent'

/** The helper when it is ready; starts it when there is none (this spawn is then direct). */
function helperReady(): SpawnerHelper | null {
  if (state === 'ready' && helper?.connected) return helper
  if (state === 'absent') boot()
  return null
}

/** Whether spawns go through the helper now (for tests and diagnostics). */
export function spawnerReady(): boolean {
  return state === 'ready' && helper?.connected === true
}

/**
 * Resolves once the helper is up (true), or cannot be (false): for tests and benchmarks that
 * want every spawn to go through it. Starts it when there is none.
 */
export async function whenSpawnerReady(): Promise<boolean> {
  if (state === 'absent') boot()
  while (state === 'booting') await new Promise((done) => setTimeout(done, 10))
  return spawnerReady()
}

/** The helper's pid, while it runs (for tests: a server's parent). */
export function spawnerPid(): number | null {
  return helper?.pid ?? null
}

function boot(): void {
  state = 'booting'
  let dir: string
  try {
    dir = socketDir()
  } catch {
    state = 'unavailable'
    return
  }
  const starting = new SpawnerHelper(dir)
  starting.start(
    () => {
      helper = starting
      state = 'ready'
    },
    (crashed) => {
      if (helper === starting) helper = null
      // Retired while idle: start again when needed. Failed to start, or crashed: spawn directly.
      state = crashed ? 'unavailable' : 'absent'
    }
  )
}

/** A private directory (mode 0700) for the socket, under RUNNER_TEMP (else the temp directory), short enough for a socket path. */
function socketDir(): string {
  for (const base of [process.env.RUNNER_TEMP, tmpdir()]) {
    if (!base) continue
    const dir = mkdtempSync(join(base, 'mcp-evals-spawn-'))
    if (Buffer.byteLength(join(dir, 's')) <= MAX_SOCKET_PATH) return dir
    rmSync(dir, { recursive: true, force: true })
  }
  throw new Error('no directory short enough for a Unix socket path')
}

/** The helper process, the socket it connects to, and the servers it spawned that have not exited. */
class SpawnerHelper {
  private child: ChildProcess | undefined
  private readonly listener: Server
  private readonly path: string
  /** Connections expected, by token: who takes each. */
  private readonly claims = new Map<string, (socket: Socket) => void>()
  private readonly servers = new Map<number, HelperServer>()
  private nextId = 1
  private idleTimer: NodeJS.Timeout | undefined
  private retiring = false
  private readonly removeDir: () => void

  constructor(dir: string) {
    this.path = join(dir, 's')
    this.removeDir = () => rmSync(dir, { recursive: true, force: true })
    // Paused until its token is read; the server's bytes then flow to GroupStdioTransport.
    this.listener = createServer({ pauseOnConnect: true }, (socket) => this.identify(socket))
    this.listener.unref()
  }

  get connected(): boolean {
    return this.child?.connected === true && !this.retiring
  }

  get pid(): number | null {
    return this.child?.pid ?? null
  }

  start(onReady: () => void, onGone: (crashed: boolean) => void): void {
    let ready = false
    let gone = false
    const fail = (crashed: boolean) => {
      if (gone) return
      gone = true
      process.off('exit', this.removeDir)
      this.listener.close()
      this.removeDir()
      for (const server of this.servers.values()) server.helperGone()
      this.servers.clear()
      onGone(crashed)
    }
    process.on('exit', this.removeDir)
    this.listener.once('error', () => fail(true))
    this.listener.listen(this.path, () => {
      const child = spawn(process.execPath, ['-e', SPAWNER_SCRIPT, this.path], {
        // Its own forks copy its memory: no preloads from NODE_OPTIONS (the servers get their own env).
        env: { ...process.env, NODE_OPTIONS: '' },
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        windowsHide: true
      })
      this.child = child
      // Neither the process nor its channel keeps us alive: a spawn in flight or a server running does (see activity).
      child.unref()
      child.channel?.unref()
      child.on('error', () => fail(true))
      child.on('exit', () => fail(!ready || !this.retiring))
      child.on('message', (message: HelperMessage) => {
        if (message.type === 'ready') {
          ready = true
          this.activity()
          return onReady()
        }
        this.servers.get(message.id)?.report(message)
      })
    })
  }

  spawn(spec: ServerSpawn): ServerProcess {
    const id = this.nextId++
    const tokens = (spec.stderr === 'pipe' ? ['stdio', 'stderr'] : ['stdio']).map(() => randomBytes(TOKEN_BYTES).toString('hex'))
    const server = new HelperServer(spec.stderr === 'pipe', () => {
      for (const token of tokens) this.claims.delete(token)
      this.servers.delete(id)
      this.activity()
    })
    this.servers.set(id, server)
    this.claims.set(tokens[0], (socket) => server.connected('stdio', socket))
    if (tokens[1]) this.claims.set(tokens[1], (socket) => server.connected('stderr', socket))
    this.activity()
    const request = {
      type: 'spawn',
      id,
      command: spec.command,
      args: spec.args,
      env: spec.env,
      // The helper's working directory is not ours to rely on: relative to ours, as a direct spawn would be.
      cwd: resolve(spec.cwd ?? '.'),
      stderr: spec.stderr,
      tokens
    }
    this.child!.send(request, (error) => {
      if (error) server.report({ type: 'failed', id, error: { message: `the spawner helper did not take the request: ${error.message}` }, thrown: false })
    })
    return server
  }

  /** A connection names its spawn by its first bytes (a token); anything else is closed. */
  private identify(socket: Socket): void {
    socket.on('error', () => undefined)
    const expected = TOKEN_BYTES * 2
    const timer = setTimeout(() => socket.destroy(), TOKEN_WAIT_MS).unref()
    const onReadable = () => {
      const head = socket.read(expected) as Buffer | null
      if (head === null) return
      socket.off('readable', onReadable)
      clearTimeout(timer)
      const claim = this.claims.get(head.toString('latin1'))
      if (!claim) return void socket.destroy()
      this.claims.delete(head.toString('latin1'))
      claim(socket)
    }
    socket.on('readable', onReadable)
    socket.once('end', () => clearTimeout(timer))
  }

  /**
   * The channel keeps us alive while a spawn is in flight or a server runs, as a child's own
   * handle would; with neither for IDLE_MS, the helper is retired.
   */
  private activity(): void {
    const channel = this.child?.channel
    clearTimeout(this.idleTimer)
    if (this.servers.size > 0) return void channel?.ref()
    channel?.unref()
    this.idleTimer = setTimeout(() => this.retire(), IDLE_MS).unref()
  }

  private retire(): void {
    if (this.servers.size > 0 || !this.child?.connected) return
    this.retiring = true
    this.child.disconnect()
  }
}

type HelperMessage =
  | { type: 'ready'; id?: undefined }
  | { type: 'spawned'; id: number; pid: number }
  | { type: 'failed'; id: number; error: SpawnErrorFields; thrown: boolean }
  | { type: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }

/** A spawn error's own fields, as the helper sends them. */
interface SpawnErrorFields {
  message: string
  name?: string
  code?: string
  errno?: number
  syscall?: string
  path?: string
  spawnargs?: string[]
}

/**
 * A server the helper spawned, as a ChildProcess would show it: 'spawn' once the pid and its
 * sockets are all here (the sockets flow from then on), 'exit' after it, 'close' once it exited
 * and its sockets closed; a failed spawn emits 'error' then 'close' (with the errno), as a direct
 * one does.
 */
class HelperServer extends EventEmitter implements ServerProcess {
  pid: number | undefined
  stdin: Socket | null = null
  stdout: Socket | null = null
  stderr: Socket | null = null
  exitCode: number | null = null
  signalCode: NodeJS.Signals | null = null
  private stdio: Socket | undefined
  private errStream: Socket | undefined
  private spawnedPid: number | undefined
  /** The exit as reported, kept until 'spawn' has been emitted. */
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
  private exitEmitted = false
  private openSockets = 0
  private closed = false

  constructor(
    private readonly wantsStderr: boolean,
    private readonly release: () => void
  ) {
    super()
  }

  /** The Windows fallback of process-group.ts (never taken: no helper on Windows), for the GroupLeader it is. */
  kill(signal: NodeJS.Signals | number = 'SIGTERM'): boolean {
    if (this.pid === undefined) return false
    try {
      process.kill(this.pid, signal)
      return true
    } catch {
      return false
    }
  }

  connected(kind: 'stdio' | 'stderr', socket: Socket): void {
    if (kind === 'stdio') this.stdio = socket
    else this.errStream = socket
    this.announce()
  }

  report(message: HelperMessage): void {
    if (message.type === 'spawned') {
      this.spawnedPid = message.pid
      this.announce()
    } else if (message.type === 'exit') {
      this.exit = { code: message.code, signal: message.signal }
      if (this.pid !== undefined) this.exited()
      // Its streams may still be on their way (a server that exits at once); if they never come
      // (the connection was dropped before its token was read), the spawn fails rather than hangs.
      else setTimeout(() => this.fail(new Error(`the server exited (${this.exit?.signal ?? `code ${this.exit?.code}`}) before its streams reached us`), null), STREAMS_GRACE_MS).unref()
    } else if (message.type === 'failed') {
      this.fail(spawnError(message.error), message.error.errno ?? null)
    }
  }

  /**
   * The helper is gone. A spawn in flight fails (a server it had started is killed: nobody would
   * hear of it); a running server's exit will not be reported, so it counts as exited now, and
   * its sockets still tell when it is really gone.
   */
  helperGone(): void {
    if (this.pid === undefined) {
      if (this.spawnedPid !== undefined) killGroupNow(this.spawnedPid)
      return this.fail(new Error('the spawner helper exited before the server started'), null)
    }
    this.exit ??= { code: null, signal: null }
    this.exited()
  }

  private announce(): void {
    if (this.pid !== undefined || this.closed || this.spawnedPid === undefined || !this.stdio || (this.wantsStderr && !this.errStream)) return
    this.pid = this.spawnedPid
    this.stdin = this.stdout = this.stdio
    this.stderr = this.errStream ?? null
    for (const socket of [this.stdio, this.errStream]) {
      if (!socket) continue
      this.openSockets++
      socket.once('close', () => {
        this.openSockets--
        this.closeIfGone()
      })
    }
    adoptGroup(this.pid, this)
    this.emit('spawn')
    // The listeners are on now: what the server wrote so far, and all after, flows to them.
    this.stdio.resume()
    if (this.exit) this.exited()
  }

  private exited(): void {
    if (this.exitEmitted || !this.exit) return
    this.exitEmitted = true
    this.exitCode = this.exit.code
    this.signalCode = this.exit.signal
    this.emit('exit', this.exit.code, this.exit.signal)
    this.release()
    this.closeIfGone()
  }

  private closeIfGone(): void {
    if (this.closed || !this.exitEmitted || this.openSockets > 0) return
    this.closed = true
    this.emit('close', this.exitCode, this.signalCode)
  }

  private fail(error: Error, errno: number | null): void {
    if (this.pid !== undefined || this.closed) return
    this.closed = true
    this.stdio?.destroy()
    this.errStream?.destroy()
    this.release()
    this.emit('error', error)
    this.emit('close', errno, null)
  }
}

/** How long a server that exited may take for its streams to arrive before its spawn counts as failed. */
const STREAMS_GRACE_MS = 2000

/** SIGKILL a group we never registered (its spawn was never reported to us); no-op when it is gone. */
function killGroupNow(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL')
  } catch {
    // Already gone.
  }
}

/** The spawn error as Node made it in the helper: same message, code, errno, syscall, path and spawnargs. */
function spawnError(fields: SpawnErrorFields): Error {
  const error = new Error(fields.message) as NodeJS.ErrnoException & { spawnargs?: string[] }
  if (fields.name && fields.name !== 'Error') error.name = fields.name
  for (const key of ['errno', 'code', 'syscall', 'path', 'spawnargs'] as const) {
    if (fields[key] !== undefined) Object.assign(error, { [key]: fields[key] })
  }
  return error
}
