import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import type { ServerConfig } from '../src/config/types.js'
import { startConformance } from '../src/conformance/run.js'
import { createSessionFactory, priorOf, type McpSession, type SessionFactory } from '../src/mcp/session.js'

/**
 * Opening sessions with the era verdict as the SDK's `prior` (issue 14): real processes of a
 * fixture server that writes its pid down as it starts, so every server started is counted.
 */

const OVERLAP = fixturePath('servers/overlap-server.mjs')
const MODERN_DISCOVER = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public' }

let dir: string
let starts: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'overlap-session-'))
  starts = join(dir, 'starts')
  writeFileSync(starts, '')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The overlap fixture in `era`, writing each start down. */
const server = (era: string): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: [OVERLAP, `STARTS=${starts}`, `ERA=${era}`], env: {} })
const started = () => readFileSync(starts, 'utf8').split('\n').filter(Boolean).length

/** Open a session, check it answers a call, close it; its era. */
async function openAndCall(sessions: SessionFactory): Promise<McpSession['era']> {
  const session = await sessions.open(new AbortController().signal)
  try {
    await expect(session.callTool('echo', { text: 'hi' }, new AbortController().signal)).resolves.toMatchObject({ text: 'hi', isError: false })
    return session.era
  } finally {
    await session.close()
  }
}

describe('no throw-away server, no waiting', () => {
  test('without a verdict, sessions opened at once each negotiate on their own process: one server per session', async () => {
    const sessions = createSessionFactory(server('modern'), { probeTimeoutMs: 3000 })
    const eras = await Promise.all([1, 2, 3, 4].map(() => openAndCall(sessions)))
    expect(eras).toEqual(['modern', 'modern', 'modern', 'modern'])
    expect(started()).toBe(4)
  })

  test('a legacy server is negotiated in place too: server/discover, then initialize on the same process', async () => {
    const sessions = createSessionFactory(server('legacy'), { probeTimeoutMs: 3000 })
    expect(await openAndCall(sessions)).toBe('legacy')
    expect(await openAndCall(sessions)).toBe('legacy')
    expect(started()).toBe(2)
  })

  test("the conformance probe's verdict is the prior: a modern one with its discover result, a legacy one", async () => {
    for (const [era, kind] of [
      ['modern', 'modern'],
      ['legacy', 'legacy']
    ] as const) {
      const conformance = startConformance(server(era), { discoverTimeoutMs: 3000 })
      const verdict = await conformance.era
      await conformance.report
      expect(verdict.era).toBe(era)
      if (verdict.era === 'unreachable') throw new Error(verdict.reason)
      const prior = priorOf(verdict)
      expect(prior?.kind).toBe(kind)
      writeFileSync(starts, '')
      expect(await openAndCall(createSessionFactory(server(era), { probeTimeoutMs: 3000, prior }))).toBe(era)
      expect(started()).toBe(1)
    }
  })
})

describe('a verdict that does not fit', () => {
  test('a legacy server opened as modern: that open negotiates again, and the next one opens as legacy', async () => {
    const sessions = createSessionFactory(server('legacy'), { probeTimeoutMs: 3000, prior: { kind: 'modern', discover: MODERN_DISCOVER as never } })
    expect(await openAndCall(sessions)).toBe('legacy')
    // The open with the stale verdict, its retry.
    expect(started()).toBe(2)
    expect(await openAndCall(sessions)).toBe('legacy')
    expect(started()).toBe(3)
  })

  test('a modern-only server opened as legacy (initialize refused): negotiated again, modern from then on', async () => {
    const sessions = createSessionFactory(server('modern'), { probeTimeoutMs: 3000, prior: { kind: 'legacy' } })
    expect(await openAndCall(sessions)).toBe('modern')
    expect(started()).toBe(2)
    expect(await openAndCall(sessions)).toBe('modern')
    expect(started()).toBe(3)
  })

  test('a discover result the SDK refuses: the open negotiates, and no server was started for the refused one', async () => {
    const sessions = createSessionFactory(server('modern'), { probeTimeoutMs: 3000, prior: { kind: 'modern', discover: { supportedVersions: 'none' } as never } })
    expect(await openAndCall(sessions)).toBe('modern')
    expect(started()).toBe(1)
  })

  test('a legacy server that exits on any request before initialize is opened again as legacy, and stays legacy', async () => {
    const sessions = createSessionFactory(server('legacy-exits'), { probeTimeoutMs: 3000 })
    expect(await openAndCall(sessions)).toBe('legacy')
    expect(started()).toBe(2)
    expect(await openAndCall(sessions)).toBe('legacy')
    expect(started()).toBe(3)
  })

  test('a server that cannot start is not retried: one process per open, and the error says why', async () => {
    const broken: ServerConfig = { kind: 'stdio', command: process.execPath, args: ['-e', `require('node:fs').appendFileSync(${JSON.stringify(starts)}, 'x\\n'); process.exit(3)`], env: {} }
    const sessions = createSessionFactory(broken, { probeTimeoutMs: 3000, prior: { kind: 'modern', discover: MODERN_DISCOVER as never } })
    await expect(sessions.open(new AbortController().signal)).rejects.toThrow(/server failed/)
    expect(started()).toBe(1)
  })
})
