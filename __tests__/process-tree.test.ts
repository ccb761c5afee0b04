import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { evaluateWith, fixturePath, suiteOf } from '../__fixtures__/harness.js'
import { scriptedBrain } from '../__fixtures__/scripted-llm.js'
import type { ServerConfig } from '../src/config/types.js'
import { runConformance } from '../src/conformance/run.js'
import { liveGroups, spawnInGroup, terminateAllGroups, terminateGroup } from '../src/mcp/process-group.js'
import { createSessionFactory } from '../src/mcp/session.js'
import { GroupStdioTransport } from '../src/mcp/stdio-transport.js'
import { isRunning as isAlive } from '../__fixtures__/processes.js'

/**
 * Real processes and real signals: every stdio server we start lives in its own process group,
 * and every way it ends (timeout, normal close, probe, our own exit) takes the whole group down.
 * Servers here are started through shell wrappers, the case that used to leave the real server
 * (a grandchild) running with our pipes open.
 */

const NODE = process.execPath
const FAULTY = fixturePath('servers/faulty-server.mjs')
const LEGACY = fixturePath('servers/legacy-server.mjs')
const REPO = fixturePath('..')
/** A node process that shrugs off SIGTERM and says so once its handler is in place. */
const IGNORES_TERM = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); process.stdout.write(process.pid + '\\n')"

let dir: string
let pidFile: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'process-tree-'))
  pidFile = join(dir, 'pids')
  writeFileSync(pidFile, '')
})
afterEach(() => {
  // A failing test must not leave its processes running for the rest of the suite.
  for (const pid of recordedPids()) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

/** Every pid a wrapper (`echo $$`) or a server (PID_FILE) wrote down. */
function recordedPids(): number[] {
  return readFileSync(pidFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => Number(line.split(' ')[0]))
}


/** The pids still alive after giving the kernel and init up to 2 s to take them down and reap them. */
async function survivors(pids: number[]): Promise<number[]> {
  const deadline = Date.now() + 2000
  for (;;) {
    const alive = pids.filter(isAlive)
    if (alive.length === 0 || Date.now() > deadline) return alive
    await sleep(50)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The faulty server behind `depth` levels of `sh -c "…; true"` (the `; true` keeps each shell
 * from exec'ing into its child). Each shell records its pid, the server records its own, and the
 * server ignores stdin closing, so only signalling the whole group can end it.
 */
function wrappedFaulty(depth: number, extraEnv: Record<string, string> = {}): ServerConfig {
  let script = '"$NODE" "$SERVER"; true'
  for (let level = 1; level < depth; level++) script = `echo $$ >> "$PID_FILE"; sh -c ${shellQuote(script)}; true`
  return {
    kind: 'stdio',
    command: 'sh',
    args: ['-c', `echo $$ >> "$PID_FILE"; ${script}`],
    env: { NODE, SERVER: FAULTY, PID_FILE: pidFile, IGNORE_STDIN_EOF: '1', ...extraEnv }
  }
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

const brain = scriptedBrain(
  {
    'echo hello': { turns: [[{ name: 'echo', args: { text: 'hello' } }]], answer: 'hello' },
    'please hang': { turns: [[{ name: 'hang', args: {} }]], answer: 'never' }
  },
  () => 9
)

const describeOnPosix = process.platform === 'win32' ? describe.skip : describe

describeOnPosix('a timed-out run takes its whole server tree down', () => {
  test.each([
    ['sh -c "node server; true"', 1],
    ['sh -c "sh -c \'node server; true\'; true"', 2]
  ])('behind %s', async (_name, depth) => {
    const started = Date.now()
    const { doc } = await evaluateWith({
      suite: suiteOf(`  - id: hang\n    prompt: please hang\n    rubric: r\n`),
      server: wrappedFaulty(depth),
      settings: { timeoutSeconds: 2 },
      responder: brain
    })
    const elapsed = Date.now() - started
    expect(doc.runs[0]).toMatchObject({ status: 'error', error: { stage: 'timeout' } })
    expect(doc.runs[0].error!.stderr_tail).toContain('waiting for lock')
    // 2 s of run, plus spawning, the discover probe and the teardown, with room for a busy machine.
    expect(elapsed).toBeLessThan(2000 + 8000)
    const pids = recordedPids()
    // The session's tree (its era is negotiated in place, no discover sibling): `depth` shells and a server.
    expect(pids.length).toBeGreaterThanOrEqual(depth + 1)
    expect(await survivors(pids)).toEqual([])
    expect(liveGroups()).toEqual([])
  })
})

describeOnPosix('a normal close', () => {
  test('a server behind sh -c that answers: nothing of its group is left', async () => {
    const { doc } = await evaluateWith({
      suite: suiteOf(`  - id: fine\n    prompt: echo hello\n    rubric: r\n    required_tools: [echo]\n`),
      server: wrappedFaulty(1),
      responder: brain
    })
    expect(doc.runs[0].status).toBe('passed')
    const pids = recordedPids()
    // A shell and a server: the era is negotiated on the session's own process.
    expect(pids.length).toBeGreaterThanOrEqual(2)
    expect(await survivors(pids)).toEqual([])
    expect(liveGroups()).toEqual([])
  })

  /** The legacy server, with a preload that records each of its processes as `pid pgid`. */
  function recordedLegacy(env: Record<string, string> = {}): ServerConfig {
    const preload = join(dir, 'record-pid.mjs')
    writeFileSync(
      preload,
      `import { appendFileSync } from 'node:fs'\nimport { execFileSync } from 'node:child_process'\n` +
        `const pgid = execFileSync('ps', ['-o', 'pgid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim()\n` +
        `appendFileSync(process.env.PID_FILE, process.pid + ' ' + pgid + '\\n')\n`
    )
    return { kind: 'stdio', command: NODE, args: ['--import', preload, LEGACY], env: { PID_FILE: pidFile, ...env } }
  }

  test('the legacy server connects in place: one process, the leader of its own group', async () => {
    const config = recordedLegacy()
    const session = await createSessionFactory(config, { probeTimeoutMs: 3000 }).open(new AbortController().signal)
    try {
      expect(session.era).toBe('legacy')
      expect(session.tools.map((t) => t.name)).toEqual(['add'])
      await expect(session.callTool('add', { a: 2, b: 3 }, new AbortController().signal)).resolves.toMatchObject({ text: '5', isError: false })
      const records = readFileSync(pidFile, 'utf8').trim().split('\n').map((line) => line.split(' ').map(Number))
      // server/discover went to the session's own server (no throw-away sibling), which leads its own group.
      expect(records).toHaveLength(1)
      const [[server, pgid]] = records
      expect(pgid).toBe(server)
      expect(isAlive(server)).toBe(true)
      expect(liveGroups()).toEqual([server])
    } finally {
      await session.close()
    }
    expect(await survivors(recordedPids())).toEqual([])
    expect(liveGroups()).toEqual([])
  })

  test('aborted during the in-place discover probe: its server is taken down and nothing starts after', async () => {
    // SILENT_UNKNOWN: server/discover gets no answer, so the probe waits out its timeout.
    const config = recordedLegacy({ SILENT_UNKNOWN: '1' })
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('run timed out')), 500)
    const started = Date.now()
    await expect(createSessionFactory(config, { probeTimeoutMs: 10_000 }).open(controller.signal)).rejects.toThrow(/server failed to start/)
    // Well before the probe's own timeout.
    expect(Date.now() - started).toBeLessThan(5000)
    expect(recordedPids()).toHaveLength(1)
    expect(await survivors(recordedPids())).toEqual([])
    // Give a late start the chance to show up: nothing may spawn after the abort.
    await sleep(300)
    expect(recordedPids()).toHaveLength(1)
    expect(liveGroups()).toEqual([])
  })
})

describeOnPosix('the conformance probe', () => {
  test('against the faulty server behind sh -c, it leaves no process behind', async () => {
    const report = await runConformance(wrappedFaulty(1), { discoverTimeoutMs: 3000, requestTimeoutMs: 5000 })
    expect(report.era).toBe('modern')
    const pids = recordedPids()
    // The main connection and four fresh ones: a shell and a server each.
    expect(pids.length).toBeGreaterThanOrEqual(10)
    expect(await survivors(pids)).toEqual([])
    expect(liveGroups()).toEqual([])
  })
})

describeOnPosix('GroupStdioTransport', () => {
  test('frames like the SDK, hands out stderr before start, and reports its close once', async () => {
    // Replies to each line with a CRLF-terminated frame after noise; stays up after stdin ends.
    const script = [
      `process.stderr.write('booting\\n')`,
      `require('readline').createInterface({ input: process.stdin }).on('line', (line) => {`,
      `  const { id } = JSON.parse(line)`,
      `  process.stdout.write('\\n' + JSON.stringify({ not: 'json-rpc' }) + '\\n' + JSON.stringify({ jsonrpc: '2.0', id, result: { ok: true } }) + '\\r\\n')`,
      `})`,
      `setInterval(() => {}, 1000)`
    ].join('\n')
    const transport = new GroupStdioTransport({ command: NODE, args: ['-e', script], stderr: 'pipe' })
    let stderr = ''
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    const messages: unknown[] = []
    const errors: Error[] = []
    let closes = 0
    transport.onmessage = (message) => messages.push(message)
    transport.onerror = (error) => errors.push(error)
    transport.onclose = () => closes++
    await transport.start()
    const pid = transport.pid!
    expect(liveGroups()).toContain(pid)
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })
    while (messages.length === 0) await sleep(20)
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, result: { ok: true } }])
    // The frame that is JSON but not JSON-RPC is reported, not delivered.
    expect(errors).toHaveLength(1)
    expect(stderr).toContain('booting')
    await Promise.all([transport.close(), transport.close()])
    expect(closes).toBe(1)
    expect(isAlive(pid)).toBe(false)
    expect(liveGroups()).toEqual([])
    await expect(transport.send({ jsonrpc: '2.0', id: 2, method: 'ping' })).rejects.toThrow(/Not connected/)
  })
})

describeOnPosix('process groups', () => {
  /** Spawn `sh -c` around a node that ignores SIGTERM; resolves once the node is listening for it. */
  async function groupIgnoringTerm(): Promise<{ leader: ChildProcess; member: number }> {
    const leader = spawnInGroup('sh', ['-c', '"$NODE" -e "$SCRIPT"; true'], { env: { NODE, SCRIPT: IGNORES_TERM }, stdio: ['ignore', 'pipe', 'inherit'] })
    const line = await new Promise<string>((resolve) => createInterface({ input: leader.stdout! }).once('line', resolve))
    const member = Number(line)
    writeFileSync(pidFile, `${leader.pid}\n${member}\n`, { flag: 'a' })
    return { leader, member }
  }

  test('terminateAllGroups: members that ignore SIGTERM get SIGKILL after the grace, all groups at once', async () => {
    const groups = [await groupIgnoringTerm(), await groupIgnoringTerm()]
    expect(liveGroups()).toEqual(expect.arrayContaining(groups.map((g) => g.leader.pid)))
    const started = Date.now()
    await terminateAllGroups(500)
    const elapsed = Date.now() - started
    // The grace was honoured, and the groups were ended side by side, not one after the other.
    expect(elapsed).toBeGreaterThanOrEqual(450)
    expect(elapsed).toBeLessThan(500 + 1500)
    for (const { member } of groups) expect(isAlive(member)).toBe(false)
    expect(liveGroups()).toEqual([])
  })

  test('terminateGroup is quick for a group that leaves on SIGTERM, and safe to repeat', async () => {
    // Without job control a background job stays in the shell's group.
    const leader = spawnInGroup('sh', ['-c', 'sleep 30 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'inherit'] })
    const member = Number(await new Promise<string>((resolve) => createInterface({ input: leader.stdout! }).once('line', resolve)))
    const pgid = leader.pid!
    writeFileSync(pidFile, `${pgid}\n${member}\n`)
    const started = Date.now()
    await Promise.all([terminateGroup(pgid, 5000), terminateGroup(pgid, 5000)])
    expect(Date.now() - started).toBeLessThan(3000)
    await terminateGroup(pgid)
    expect(isAlive(member)).toBe(false)
    // An exited leader may be a zombie for a moment, until libuv reaps it and reports the exit.
    const exit = await new Promise((resolve) => (leader.signalCode ? resolve(leader.signalCode) : leader.once('exit', (_code, signal) => resolve(signal))))
    expect(exit).toBe('SIGTERM')
    expect(liveGroups()).toEqual([])
  })

  test('a process that exits (process.exit) takes its grouped servers with it', async () => {
    // A separate node process, loading the module through tsx: the 'exit' hook is process-wide.
    const script = [
      `const { spawnInGroup } = await import('./src/mcp/process-group.ts')`,
      `const server = spawnInGroup(process.env.NODE, ['-e', process.env.SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] })`,
      `server.stdout.once('data', (pid) => { process.stdout.write(pid); process.exit(0) })`
    ].join('\n')
    const parent = spawn(NODE, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO,
      env: { ...process.env, NODE, SCRIPT: IGNORES_TERM },
      stdio: ['ignore', 'pipe', 'inherit']
    })
    let output = ''
    parent.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    const code = await new Promise((resolve) => parent.once('close', resolve))
    expect(code).toBe(0)
    const server = Number(output.trim())
    expect(server).toBeGreaterThan(0)
    writeFileSync(pidFile, `${server}\n`)
    expect(await survivors([server])).toEqual([])
  })
})
