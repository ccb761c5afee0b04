import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

/**
 * The process groups of the stdio servers we start.
 *
 * A server is often started through a wrapper (`sh -c`, `npx`, `uv run`), so the process we
 * spawn is not the one that serves: killing only our direct child leaves the real server alive,
 * holding the pipes open, and the action never exits. Each server therefore gets its own process
 * group (`detached`: pgid = the child's pid), and every way a server ends signals the whole group.
 *
 * Process groups are POSIX; on Windows there is no group to signal and we fall back to killing
 * the direct child.
 */

const GROUPS_SUPPORTED = process.platform !== 'win32'
/** How often a terminating group is checked for members left: from 20 ms, backing off to 100 ms. */
const FIRST_POLL_MS = 20
const MAX_POLL_MS = 100
/** After SIGKILL the kernel needs a moment to take the processes down and their parents to reap them. */
const AFTER_KILL_MS = 500

/**
 * What the registry needs of a group's leader: to notice its exit, and (the Windows fallback) to
 * signal it. A ChildProcess is one; so is a server the spawner helper started (src/mcp/spawner.ts).
 */
export interface GroupLeader {
  readonly exitCode: number | null
  readonly signalCode: NodeJS.Signals | null
  kill(signal?: NodeJS.Signals | number): boolean
  once(event: 'exit', listener: () => void): unknown
}

/** Live groups by pgid. The leader is kept for the Windows fallback and to notice its exit. */
const live = new Map<number, GroupLeader>()
/** Terminations in flight, so a second caller waits for the first instead of signalling again. */
const terminating = new Map<number, Promise<void>>()
let exitHookInstalled = false

export interface GroupSpawnOptions {
  env?: NodeJS.ProcessEnv
  cwd?: string
  stdio: StdioOptions
}

/**
 * Spawn `command` as the leader of a new process group and register the group. The child is not
 * unref'd: we keep talking to it over its pipes.
 */
export function spawnInGroup(command: string, args: readonly string[], options: GroupSpawnOptions): ChildProcess {
  const child = spawn(command, args, {
    env: options.env,
    cwd: options.cwd,
    stdio: options.stdio,
    shell: false,
    // On Windows `detached` means a new console window, not a process group.
    detached: GROUPS_SUPPORTED,
    windowsHide: true
  })
  // No pid: the spawn failed (the child emits 'error'); there is no group to track.
  if (child.pid !== undefined) adoptGroup(child.pid, child)
  return child
}

/**
 * Register the group `leader` leads (pgid = its pid), spawned `detached` by someone else (the
 * spawner helper), so terminateGroup, terminateAllGroups and our exit take it down like our own.
 */
export function adoptGroup(pgid: number, leader: GroupLeader): void {
  installExitHook()
  live.set(pgid, leader)
  // A leader that exits with no member left frees its pid for reuse: forget the group then, so we
  // never signal a stranger's group of the same number. Members left behind keep the pgid taken,
  // so the group stays registered until terminateGroup() sees it empty.
  leader.once('exit', () => {
    if (!signalGroup(pgid, 0)) live.delete(pgid)
  })
}

/**
 * End the group: SIGTERM to every member, SIGKILL to what is left after `graceMs`. Resolves once
 * the group is empty (or nothing more can be done). Never throws; safe to call again, and a group
 * that is not registered (never ours, or already gone) is left alone.
 */
export function terminateGroup(pgid: number, graceMs = 1000): Promise<void> {
  if (!live.has(pgid)) return Promise.resolve()
  let pending = terminating.get(pgid)
  if (!pending) {
    pending = escalate(pgid, graceMs).finally(() => {
      live.delete(pgid)
      terminating.delete(pgid)
    })
    terminating.set(pgid, pending)
  }
  return pending
}

/** Terminate every live group in parallel: the whole call takes about `graceMs`, not n × graceMs. */
export async function terminateAllGroups(graceMs = 1000): Promise<void> {
  await Promise.all([...live.keys()].map((pgid) => terminateGroup(pgid, graceMs)))
}

/** SIGKILL every live group now, synchronously: for a second interrupt, or the process exiting. */
export function killAllGroupsSync(): void {
  for (const pgid of live.keys()) signalGroup(pgid, 'SIGKILL')
  live.clear()
}

/** The pgids of the groups still registered (for tests and diagnostics). */
export function liveGroups(): number[] {
  return [...live.keys()]
}

async function escalate(pgid: number, graceMs: number): Promise<void> {
  if (signalGroup(pgid, 'SIGTERM') && (await waitUntilEmpty(pgid, graceMs))) return
  if (signalGroup(pgid, 'SIGKILL')) await waitUntilEmpty(pgid, AFTER_KILL_MS)
}

/**
 * Send `signal` to every member. False when there is no one (left) to signal: ESRCH (the group is
 * empty) or EPERM (the members left are not ours to signal, e.g. a setuid helper).
 */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  if (!GROUPS_SUPPORTED) {
    const child = live.get(pgid)
    if (!child || child.exitCode !== null || child.signalCode !== null) return false
    // Signal 0 only asks whether the child is alive; child.kill(0) would not tell us more.
    return signal === 0 || child.kill(signal)
  }
  try {
    process.kill(-pgid, signal)
    return true
  } catch {
    return false
  }
}

/**
 * Whether any member is still running. kill(-pgid, 0) also counts zombies, and members whose
 * parent (a wrapper) died are reparented to init, which in containers often reaps late or never:
 * on Linux a group of zombies only is empty for us (they hold no pipes and cannot be killed).
 */
function hasRunningMembers(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false
  if (process.platform !== 'linux') return true
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      let stat: string
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      } catch {
        continue // exited while we looked
      }
      // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(pgrp) === pgid && state !== 'Z') return true
    }
    return false
  } catch {
    return true // no /proc to read: trust kill()
  }
}

/** Poll until the group is empty; false if members are still running after `ms`. */
async function waitUntilEmpty(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  let pollMs = FIRST_POLL_MS
  while (hasRunningMembers(pgid)) {
    if (Date.now() >= deadline) return false
    // Awaiting a timer also lets libuv reap our exited leader.
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, deadline - Date.now())))
    pollMs = Math.min(pollMs * 2, MAX_POLL_MS)
  }
  return true
}

/**
 * Our servers are in their own groups, so they no longer die with our process group: whatever
 * way we exit normally (including process.exit()), take them down. 'exit' handlers must be
 * synchronous, hence SIGKILL without grace.
 */
function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on('exit', killAllGroupsSync)
}
