import { afterEach, describe, expect, test } from '@jest/globals'
import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { createInterface } from 'node:readline'
import { fixturePath } from '../__fixtures__/harness.js'
import { liveGroups } from '../src/mcp/process-group.js'
import { spawnerPid, spawnerReady, whenSpawnerReady } from '../src/mcp/spawner.js'
import { GroupStdioTransport } from '../src/mcp/stdio-transport.js'
import { isRunning } from '../__fixtures__/processes.js'

/**
 * The spawner helper (src/mcp/spawner.ts) with real processes: a server it spawns is its child
 * but ours to talk to (a socket straight to it) and to end (its own group, signalled by us), and
 * everything else (failures, env, cwd, our exit) reads as a direct spawn's. The last test kills
 * the helper: spawns are direct after it, for the rest of this file.
 */

const NODE = process.execPath
const REPO = fixturePath('..')
/** Answers each line with its id and facts about itself; stays up after stdin ends. */
const REPORTER = [
  `const { execFileSync } = require('child_process')`,
  `const { fstatSync } = require('fs')`,
  `process.stderr.write('booting ' + process.pid + '\\n')`,
  `require('readline').createInterface({ input: process.stdin }).on('line', (line) => {`,
  `  const { id } = JSON.parse(line)`,
  `  const pgid = Number(execFileSync('ps', ['-o', 'pgid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim())`,
  `  const facts = { pid: process.pid, ppid: process.ppid, pgid, socket: fstatSync(0).isSocket(), cwd: process.cwd(), env: Object.keys(process.env).sort() }`,
  `  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result: facts }) + '\\n')`,
  `})`,
  `setInterval(() => {}, 1000)`
].join('\n')
/** A node process that shrugs off SIGTERM and prints its pid once its handler is in place. */
const IGNORES_TERM = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); process.stdout.write(process.pid + '\\n')"

interface Facts {
  pid: number
  ppid: number
  pgid: number
  socket: boolean
  cwd: string
  env: string[]
}

let cleanup: number[] = []
afterEach(() => {
  // A failing test must not leave its processes running for the rest of the suite.
  for (const pid of cleanup) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
  cleanup = []
})


/** Poll `condition` until it holds or `ms` have passed (never an assertion on the time itself). */
async function eventually(condition: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25))
  return condition()
}

/** A started reporter server: its transport, what it said about itself, its stderr so far, and how often it closed. */
async function startReporter(params: { env?: Record<string, string>; cwd?: string } = {}) {
  const transport = new GroupStdioTransport({ command: NODE, args: ['-e', REPORTER], stderr: 'pipe', ...params })
  let stderr = ''
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const messages: { id: number; result: Facts }[] = []
  let closes = 0
  transport.onmessage = (message) => void messages.push(message as never)
  transport.onclose = () => closes++
  await transport.start()
  cleanup.push(transport.pid!)
  const ask = async (id: number): Promise<Facts> => {
    await transport.send({ jsonrpc: '2.0', id, method: 'facts' })
    await eventually(() => messages.some((m) => m.id === id), 10_000)
    return messages.find((m) => m.id === id)!.result
  }
  return { transport, ask, stderr: () => stderr, closes: () => closes }
}

const describeOnPosix = process.platform === 'win32' ? describe.skip : describe

describeOnPosix('servers spawned by the helper', () => {
  test('the server is the helper’s child, leads its own group, and talks to us over a socket of its own', async () => {
    expect(await whenSpawnerReady()).toBe(true)
    const helper = spawnerPid()!
    expect(helper).not.toBe(process.pid)
    const { transport, ask, stderr, closes } = await startReporter()
    const pid = transport.pid!
    const facts = await ask(1)
    expect(facts).toMatchObject({ pid, ppid: helper, pgid: pid, socket: true })
    expect(liveGroups()).toContain(pid)
    expect(await eventually(() => stderr().includes(`booting ${pid}`))).toBe(true)
    await Promise.all([transport.close(), transport.close()])
    expect(closes()).toBe(1)
    expect(isRunning(pid)).toBe(false)
    expect(liveGroups()).toEqual([])
    await expect(transport.send({ jsonrpc: '2.0', id: 2, method: 'facts' })).rejects.toThrow(/Not connected/)
  })

  test('closing a server behind sh -c takes its whole group down, a member ignoring SIGTERM too', async () => {
    expect(await whenSpawnerReady()).toBe(true)
    const transport = new GroupStdioTransport({ command: 'sh', args: ['-c', '"$NODE" -e "$SCRIPT"; true'], env: { NODE, SCRIPT: IGNORES_TERM }, stderr: 'pipe' })
    const lines: string[] = []
    transport.onerror = () => undefined
    await transport.start()
    const stdout = (transport as unknown as { child: { stdout: NodeJS.ReadableStream } }).child.stdout
    createInterface({ input: stdout }).on('line', (line) => lines.push(line))
    expect(await eventually(() => lines.length > 0)).toBe(true)
    const member = Number(lines[0])
    cleanup.push(member, transport.pid!)
    expect(liveGroups()).toContain(transport.pid)
    await transport.close()
    expect(await eventually(() => !isRunning(member))).toBe(true)
    expect(liveGroups()).toEqual([])
  })

  test('env and cwd are the server’s exactly as given (a relative cwd from ours), nothing of the helper’s', async () => {
    expect(await whenSpawnerReady()).toBe(true)
    const dir = mkdtempSync(join(tmpdir(), 'spawner-cwd-'))
    try {
      const { transport, ask } = await startReporter({ env: { PATH: process.env.PATH ?? '', ONLY_THIS: '1' }, cwd: relative(process.cwd(), dir) })
      const facts = await ask(1)
      expect(facts.ppid).toBe(spawnerPid())
      expect(facts.env).toEqual(['ONLY_THIS', 'PATH'])
      expect(facts.cwd).toBe(dir)
      await transport.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test.each<[string, { command: string; args: string[]; cwd?: string }]>([
    ['a command that does not exist', { command: 'no-such-server-command-42', args: ['--x'] }],
    ['a file that is not executable', { command: 'NOT_EXECUTABLE', args: [] }],
    ['a working directory that does not exist', { command: NODE, args: ['-e', '1'], cwd: '/no/such/directory/42' }]
  ])('%s fails as a direct spawn would: the same error, reported once, then the close', async (_name, params) => {
    expect(await whenSpawnerReady()).toBe(true)
    const dir = mkdtempSync(join(tmpdir(), 'spawner-fail-'))
    const file = join(dir, 'plain.txt')
    writeFileSync(file, 'not a program')
    chmodSync(file, 0o644)
    const command = params.command === 'NOT_EXECUTABLE' ? file : params.command
    try {
      const direct = await new Promise<NodeJS.ErrnoException & { spawnargs?: string[] }>((resolve) => spawn(command, params.args, { cwd: params.cwd, stdio: 'ignore' }).once('error', resolve))
      const transport = new GroupStdioTransport({ command, args: params.args, cwd: params.cwd, stderr: 'pipe' })
      const errors: Error[] = []
      let closes = 0
      transport.onerror = (error) => errors.push(error)
      transport.onclose = () => closes++
      const failure = (await transport.start().catch((error: unknown) => error)) as typeof direct
      const fields = (e: typeof direct) => ({ message: e.message, code: e.code, errno: e.errno, syscall: e.syscall, path: e.path, spawnargs: e.spawnargs })
      expect(failure).toBeInstanceOf(Error)
      expect(fields(failure)).toEqual(fields(direct))
      expect(errors).toEqual([failure])
      expect(await eventually(() => closes === 1)).toBe(true)
      expect(spawnerReady()).toBe(true)
      expect(liveGroups()).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test.each([
    ['exits (process.exit)', 'exit'],
    ['is killed (SIGKILL): the helper takes them down', 'kill']
  ])('when the harness %s, its servers go with it', async (_name, how) => {
    // A separate node process, loading the modules through tsx, whose server prints its pid.
    const script = [
      `const { whenSpawnerReady } = await import('./src/mcp/spawner.ts')`,
      `const { GroupStdioTransport } = await import('./src/mcp/stdio-transport.ts')`,
      `if (!(await whenSpawnerReady())) throw new Error('no helper')`,
      `const transport = new GroupStdioTransport({ command: process.env.NODE, args: ['-e', process.env.SCRIPT], stderr: 'ignore' })`,
      `await transport.start()`,
      `transport.child.stdout.once('data', (pid) => { process.stdout.write(pid); if (process.env.HOW === 'exit') process.exit(0) })`
    ].join('\n')
    const parent = spawn(NODE, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, env: { ...process.env, NODE, SCRIPT: IGNORES_TERM, HOW: how }, stdio: ['ignore', 'pipe', 'inherit'] })
    let output = ''
    parent.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    expect(await eventually(() => /\d+\n/.test(output), 30_000)).toBe(true)
    const server = Number(output.trim())
    cleanup.push(server)
    if (how === 'kill') parent.kill('SIGKILL')
    await new Promise((resolve) => (parent.exitCode !== null || parent.signalCode !== null ? resolve(null) : parent.once('exit', resolve)))
    expect(await eventually(() => !isRunning(server))).toBe(true)
  })

  test('the helper is retired when nothing runs, and started again for the next spawns', async () => {
    expect(await whenSpawnerReady()).toBe(true)
    const first = spawnerPid()!
    expect(await eventually(() => spawnerPid() === null, 15_000)).toBe(true)
    expect(isRunning(first)).toBe(false)
    // The spawn that finds no helper is direct, and starts one.
    const { transport, ask } = await startReporter()
    expect((await ask(1)).ppid).toBe(process.pid)
    await transport.close()
    expect(await whenSpawnerReady()).toBe(true)
    expect(spawnerPid()).not.toBe(first)
  })

  test('a helper that dies leaves its running servers to us; later spawns are direct', async () => {
    expect(await whenSpawnerReady()).toBe(true)
    const helper = spawnerPid()!
    const { transport, ask, closes } = await startReporter()
    expect((await ask(1)).ppid).toBe(helper)
    process.kill(helper, 'SIGKILL')
    expect(await eventually(() => !spawnerReady())).toBe(true)
    // The socket is the server's own: it still answers, and closing it still ends its group.
    expect((await ask(2)).pid).toBe(transport.pid)
    const pid = transport.pid!
    await transport.close()
    expect(closes()).toBe(1)
    expect(isRunning(pid)).toBe(false)
    expect(liveGroups()).toEqual([])
    const direct = await startReporter()
    expect((await direct.ask(1)).ppid).toBe(process.pid)
    await direct.transport.close()
    expect(isRunning(helper)).toBe(false)
  })
})
