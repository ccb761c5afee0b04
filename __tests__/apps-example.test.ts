import { afterAll, describe, expect, test } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCliProcess } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { openAppHost } from '../src/apps/host.js'
import type { ResultsDocument } from '../src/results/types.js'

// examples/app_tests.yaml as its header and docs/apps.md run it: the CLI, the example server's
// destination cards rendered in a real browser. Skipped, saying why, where no browser is found.

const probe = await openAppHost({ chromePath: '', env: process.env, outputDir: tmpdir(), renderTimeoutMs: 1000, concurrency: 1, secrets: [] })
await probe.host?.close()
const describeWithBrowser = probe.host ? describe : describe.skip
if (!probe.host) console.warn(`apps-example: skipped: ${probe.reason}`)

const work = mkdtempSync(join(tmpdir(), 'apps-example-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describeWithBrowser('examples/app_tests.yaml', () => {
  test('every app test passes against the example server, each with its screenshot', async () => {
    const server = JSON.stringify({ command: 'node', args: ['examples/server/server.mjs'] })
    const r = await runCliProcess(['--server-config', server, '--eval-cases', 'examples/app_tests.yaml', '--tool-tests', 'only', '--output-dir', work], fixturePath('..'))
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
    expect(r.stdout).toMatch(/^✓ tool test cards-for-tokyo /m)
    expect(r.stdout).toMatch(/^✓ tool test beach-destinations /m)
    const doc = JSON.parse(readFileSync(join(work, 'eval-results.json'), 'utf8')) as ResultsDocument
    expect(doc.apps).toMatchObject({ status: 'ran', renders: 2, failed: 0 })
    for (const t of doc.tool_tests!.tests) {
      const render = t.attempts[0]!.steps[0]!.app!
      expect(render.findings.filter((f) => f.status !== 'passed')).toEqual([])
      expect(existsSync(join(work, render.screenshot!))).toBe(true)
    }
  }, 120_000)
})
