import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { prepareInputs, type InputDeps } from '../src/agent/input-answers.js'
import type { ServerConfig } from '../src/config/types.js'
import { sessionFindingsOf } from '../src/conformance/observe-session.js'
import { createSessionFactory, type McpSession } from '../src/mcp/session.js'

/**
 * The published server-filesystem (a legacy server on the v1 SDK) started with no directory
 * argument: it works only in the roots the client lists, which it asks for as it starts.
 */

const require = createRequire(import.meta.url)
const SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js')
const config: ServerConfig = { kind: 'stdio', command: process.execPath, args: [SERVER], env: {} }
const noLlm: InputDeps = { llm: { complete: () => Promise.reject(new Error('not used')) }, model: 'm', attempt: 1, onSamplingCall: () => undefined }

function workspace(): string {
  // realpath: on macOS the temp dir is a symlink, and the server compares real paths.
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fs-roots-')))
  writeFileSync(join(dir, 'notes.txt'), 'Buy a skillet.\n')
  return dir
}

/** A call made at once: the session waits, as it opens, until the server has taken in the roots it asked for as it started. */
const callNow = (session: McpSession, name: string, args: Record<string, unknown>) => session.callTool(name, args, new AbortController().signal)

describe('a server that asks for the roots as it starts', () => {
  test('takes our answer in a moment later: the session waits for that, so the first call, made at once, sees them', async () => {
    const slow: ServerConfig = { kind: 'stdio', command: process.execPath, args: [require.resolve('../__fixtures__/servers/legacy-input-server.mjs'), 'ROOTS_AT_START=60'], env: {} }
    const inputs = prepareInputs(null, ['file:///workspace'], noLlm)
    const session = await createSessionFactory(slow, { probeTimeoutMs: 3000 }).open(new AbortController().signal, { inputs: inputs.client })
    try {
      expect(await callNow(session, 'workspace_roots', {})).toMatchObject({ isError: false, text: 'Roots: file:///workspace' })
      expect(session.timings.list_ms).toBeGreaterThanOrEqual(60)
    } finally {
      await session.close()
    }
  })
})

describe('server-filesystem with roots and no directory argument', () => {
  test("the server_config's roots are listed to it, and it lists and reads the directory", async () => {
    const dir = workspace()
    const inputs = prepareInputs(null, [pathToFileURL(dir).href], noLlm)
    expect(inputs.client.capabilities).toEqual({ roots: {} })
    const session = await createSessionFactory(config, { probeTimeoutMs: 3000 }).open(new AbortController().signal, { inputs: inputs.client })
    try {
      expect(session.era).toBe('legacy')
      const listed = await callNow(session, 'list_directory', { path: dir })
      expect(listed).toMatchObject({ isError: false, text: expect.stringContaining('[FILE] notes.txt') })
      const read = await callNow(session, 'read_text_file', { path: join(dir, 'notes.txt') })
      expect(read).toMatchObject({ isError: false, text: expect.stringContaining('Buy a skillet.') })
      // It asked as it started, outside any call: the session's own rounds hold that.
      const rounds = session.sessionRounds()
      expect(rounds.map((r) => r.exchanges.map((e) => [e.method, e.answered_by, e.response]))).toEqual([
        [['roots/list', "the server_config's roots", { roots: [{ uri: pathToFileURL(dir).href, name: dir.split('/').at(-1) }] }]]
      ])
      expect(sessionFindingsOf(session)).toEqual([])
      // Roots from server_config alone: the run still gets its verdict, the startup roots/list in it.
      expect(inputs.verdict([{ name: 'list_directory', input_rounds: listed.input_rounds }], rounds)).toMatchObject({ declared: ['roots'], expected: [], asked: ['roots'], passed: true, outside_calls: rounds })
      // Outside the roots it refuses.
      const outside = await session.callTool('read_text_file', { path: '/etc/hostname' }, new AbortController().signal)
      expect(outside).toMatchObject({ isError: true, text: expect.stringContaining(`Access denied - path outside allowed directories: /etc/hostname not in ${dir}`) })
    } finally {
      await session.close()
    }
  })

  test('with no roots declared it refuses the directory', async () => {
    const dir = workspace()
    const signal = new AbortController().signal
    const session = await createSessionFactory(config, { probeTimeoutMs: 3000 }).open(signal)
    try {
      const text = `Access denied - path outside allowed directories: ${dir} not in `
      // The raw result rides along for the evals/v1 assertions.
      expect(await session.callTool('list_directory', { path: dir }, signal)).toEqual({ isError: true, text, result: { content: [{ type: 'text', text }], isError: true } })
      expect(session.sessionRounds()).toEqual([])
    } finally {
      await session.close()
    }
  })
})
