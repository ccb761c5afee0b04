import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { fromUpstreamRun } from '../src/cli/run-alias.js'

// The CLI on an evals/v1 suite, the real example server behind it: --eval-suite, the server from
// the suite, output_dir's default, and the runner flags accepted with one notice.

const startDir = process.cwd()
let work: string
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'evals-v1-cli-'))
  process.chdir(work)
})
afterAll(() => process.chdir(startDir))

const SUITE = `apiVersion: mcp-use.com/evals/v1
kind: EvalSuite
name: cli
server:
  command: \${NODE_BIN}
  args: ['${fixturePath('../examples/server/server.mjs')}']
flows:
  - id: main
    type: agent
    scenarios: [{id: s1, turns: [{user: hi}]}]
`

describe('mcp-server-evals --eval-suite', () => {
  test('the suite’s own server, the files in eval-results/, one notice for --evals-version and --node-version', async () => {
    writeFileSync('suite.yaml', SUITE)
    const { code, stdout, stderr } = await runCli(['--eval-suite', 'suite.yaml', '--conformance', 'only', '--evals-version', '0.1.0', '--node-version', '22'], { NODE_BIN: process.execPath })
    expect(stderr.split('\n').filter((line) => line.startsWith('notice:'))).toEqual([
      'notice: --evals-version and --node-version: accepted and ignored: MCP Server Evals is the runner itself (it runs no @mcp-use/evals package and sets up no Node.js), so no version is read.'
    ])
    expect(stdout).toContain(
      `Results: ${join('eval-results', 'eval-results.json')}\nevals/v1: ${join('eval-results', 'results.json')}, ${join('eval-results', 'metrics.json')}\nReport:  ${join('eval-results', 'report.md')}\nHTML:    ${join('eval-results', 'eval-report.html')}\nJournal: ${join('eval-results', 'eval-runs.jsonl')}\n`
    )
    expect(readdirSync('eval-results').sort()).toEqual(expect.arrayContaining(['eval-results.json', 'report.md']))
    expect(existsSync('eval-results.json')).toBe(false)
    expect(code).toBe(0)
  })

  test("@mcp-use/evals' own command line: `run --eval-suite … --output DIR` writes its files in DIR", async () => {
    writeFileSync('suite.yaml', SUITE)
    const { code, stdout } = await runCli(['run', '--eval-suite', 'suite.yaml', '--output', 'upstream-out', '--conformance', 'only'], { NODE_BIN: process.execPath })
    expect(code).toBe(0)
    expect(stdout).toContain(`evals/v1: ${join('upstream-out', 'results.json')}, ${join('upstream-out', 'metrics.json')}\n`)
    expect(readdirSync('upstream-out').sort()).toEqual(expect.arrayContaining(['eval-results.json', 'metrics.json', 'report.md', 'results.json']))
    // Without `run`, --output is ours: the results document's path.
    expect(fromUpstreamRun(['--eval-suite', 's.yaml', '--output', 'x.json'])).toEqual(['--eval-suite', 's.yaml', '--output', 'x.json'])
    expect(fromUpstreamRun(['run', '--output=dir', '--filter', 'a', '--skip-agent'])).toEqual(['--output-dir=dir', '--filter', 'a', '--only-tool-tests'])
  })

  test('--eval-suite with --eval-cases: a usage error', async () => {
    const { code, stderr } = await runCli(['--eval-suite', 'suite.yaml', '--eval-cases', 'suite.yaml'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^error: --eval-suite: cannot be given together with --eval-cases: /)
  })

  test('an unset variable in the suite’s server: the file, line and path', async () => {
    writeFileSync('unset.yaml', SUITE)
    const { code, stderr } = await runCli(['--eval-suite', 'unset.yaml', '--conformance', 'only'], {})
    expect(code).toBe(2)
    expect(stderr).toMatch(/^error: unset\.yaml:5:12 at server\.command: environment variable NODE_BIN is not set/)
  })
})
