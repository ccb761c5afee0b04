import { afterAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCliProcess } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { parseEvalsV1Suite } from '../src/config/evals-v1-suite.js'
import { createSessionFactory } from '../src/mcp/session.js'

// The evals/v1 templates of examples/evals-v1/, written for the example server: they load, and
// what they expect is what the server answers.
const DIR = fixturePath('../examples/evals-v1')
const SERVER = fixturePath('../examples/server/server.mjs')
const REPO = fixturePath('..')
const templates = readdirSync(DIR).filter((f) => f.endsWith('.suite.yaml'))
const work = mkdtempSync(join(tmpdir(), 'v1-templates-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('examples/evals-v1', () => {
  test('the three templates are there, and each loads', () => {
    expect(templates.sort()).toEqual(['blank.suite.yaml', 'mcp-apps.suite.yaml', 'starter.suite.yaml'])
    for (const file of templates) {
      const loaded = parseEvalsV1Suite(readFileSync(join(DIR, file), 'utf8'), file, { context: 'manual' })
      expect(loaded.server?.data).toEqual({ command: 'node', args: ['examples/server/server.mjs'] })
    }
  })

  // The resource and list checks (starter's cities-resource, blank's list-tools) need area B's
  // resources/read and list calls: once they run, every check of the three passes (exit 0).
  test("their tool checks pass against the example server (the suite's own server block, from the repository root)", async () => {
    for (const [file, check] of [
      ['starter.suite.yaml', 'forecast-paris'],
      ['mcp-apps.suite.yaml', 'search-tokyo-direct']
    ]) {
      const r = await runCliProcess(['--eval-suite', join(DIR, file), '--only-tool-tests', '--conformance', 'off', '--output-dir', join(work, check)], REPO)
      expect({ file, stderr: r.stderr }).toEqual({ file, stderr: '' })
      expect(r.stdout).toMatch(new RegExp(`^✓ tool test ${check} `, 'm'))
      if (file === 'mcp-apps.suite.yaml') expect(r.code).toBe(0)
    }
  })

  test('what the list and resource checks read is what the server says', async () => {
    const session = await createSessionFactory({ kind: 'stdio', command: process.execPath, args: [SERVER], env: {} }).open(AbortSignal.timeout(30_000))
    try {
      // blank: $[0].name and $[7].name of tools/list.
      expect([session.tools[0].name, session.tools[7].name]).toEqual(['get_weather', 'search_destinations'])
      // mcp-apps: the tool links its MCP Apps view, which the server lists.
      expect(session.tools[7].ui?.resource_uri).toBe('ui://travel/destination-cards.html')
      expect(session.resources.find((r) => r.uri === 'ui://travel/destination-cards.html')?.mime_type).toBe('text/html;profile=mcp-app')
      // starter: $.contents[0].text of travel://cities contains tokyo.
      expect((await session.readResource('travel://cities', AbortSignal.timeout(30_000))).text).toContain('tokyo')
    } finally {
      await session.close()
    }
  })
})
