import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { demoBrain } from '../examples/demo-model/brain.js'
import type { ResultsDocument } from '../src/results/types.js'

// The CLI writes eval-report.html beside eval-report.md by default, for a run, `report --from`
// (a results document or a journal) and `merge`; --html PATH moves it, --no-html leaves it out.

const DEMO = ['--demo', '--filter', 'weather-paris', '--concurrency', '4']
const startDir = process.cwd()
afterAll(() => process.chdir(startDir))

/** The document the page embeds (what it shows), as the page parses it. */
function pageDocument(path: string): ResultsDocument {
  const match = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(readFileSync(path, 'utf8'))
  if (!match) throw new Error(`${path}: no report-data element`)
  return (JSON.parse(match[1]) as { doc: ResultsDocument }).doc
}
const resultsDocument = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as ResultsDocument

/** A fresh directory to run in. */
function inFreshDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  process.chdir(dir)
  return dir
}

describe('a run', () => {
  let run: Awaited<ReturnType<typeof runCli>>
  let dir: string
  beforeAll(async () => {
    dir = inFreshDir('html-cli-run-')
    run = await runCli(DEMO)
  }, 60_000)

  test('writes eval-report.html beside eval-report.md, from the same document, and names it in the closing lines', () => {
    process.chdir(dir)
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Report:  eval-report.md\nHTML:    eval-report.html\nJournal: eval-runs.jsonl\n')
    expect(pageDocument('eval-report.html')).toEqual(resultsDocument('eval-results.json'))
  })

  test('report --from eval-results.json --html re-renders it from the document', async () => {
    process.chdir(dir)
    rmSync('eval-report.html')
    const again = await runCli(['report', '--from', 'eval-results.json', '--html'])
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('HTML:    eval-report.html\n')
    expect(pageDocument('eval-report.html')).toEqual(resultsDocument('eval-results.json'))
  })

  test('report --from eval-runs.jsonl --html PATH re-renders it from the journal, where asked', async () => {
    process.chdir(dir)
    const again = await runCli(['report', '--from', 'eval-runs.jsonl', '--output', 'from-journal.json', '--report', 'from-journal.md', '--html', 'from-journal.html'])
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('HTML:    from-journal.html\n')
    const doc = pageDocument('from-journal.html')
    expect(doc).toEqual(resultsDocument('from-journal.json'))
    expect(doc.runs.map((r) => r.case_id)).toEqual(resultsDocument('eval-results.json').runs.map((r) => r.case_id))
  })

  test('report --from … --no-html writes none', async () => {
    process.chdir(dir)
    rmSync('eval-report.html')
    const again = await runCli(['report', '--from', 'eval-results.json', '--no-html'])
    expect(again.code).toBe(0)
    expect(again.stdout).not.toContain('HTML:')
    expect(existsSync('eval-report.html')).toBe(false)
  })
})

describe('--html PATH and --no-html', () => {
  test('--no-html: no page, no line for it', async () => {
    inFreshDir('html-cli-none-')
    const { code, stdout } = await runCli([...DEMO, '--no-html'])
    expect(code).toBe(0)
    expect(stdout).not.toContain('HTML:')
    expect(readdirSync('.').filter((f) => f.endsWith('.html'))).toEqual([])
  }, 60_000)

  test('--html PATH: the page there; a bare --html before another flag keeps the default place', async () => {
    inFreshDir('html-cli-path-')
    mkdirSync('pages')
    const moved = await runCli([...DEMO, '--html', 'pages/report.html'])
    expect(moved.code).toBe(0)
    expect(moved.stdout).toContain('HTML:    pages/report.html\n')
    expect(existsSync('pages/report.html')).toBe(true)
    expect(existsSync('eval-report.html')).toBe(false)
    const bare = await runCli(['--html', ...DEMO])
    expect(bare.code).toBe(0)
    expect(existsSync('eval-report.html')).toBe(true)
  }, 60_000)

  test('both at once are a usage error: exit 2, nothing written', async () => {
    inFreshDir('html-cli-both-')
    const { code, stdout, stderr } = await runCli([...DEMO, '--html', 'x.html', '--no-html'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^error: --no-html: cannot be combined with --html\n/)
    expect(readdirSync('.')).toEqual([])
  })

  test("every command's help names them", async () => {
    for (const argv of [['--help'], ['report', '--help'], ['merge', '--help']]) {
      const { code, stdout } = await runCli(argv)
      expect(code).toBe(0)
      expect(stdout).toContain('--html [PATH]               the HTML report')
      expect(stdout).toContain('--no-html')
    }
  })
})

describe('merge', () => {
  let dir: string
  // The shards of one run share their model's URL: the demo brain on one port, not --demo's own each time.
  let llm: ScriptedLlm
  beforeAll(async () => {
    dir = inFreshDir('html-cli-merge-')
    llm = await startScriptedLlm(demoBrain)
    const root = fixturePath('..')
    const suite = ['--server-config', JSON.stringify({ command: process.execPath, args: [join(root, 'examples/server/server.mjs')] }), '--eval-cases', join(root, 'examples/eval_cases.yaml')]
    for (const shard of ['1/2', '2/2']) expect((await runCli([...suite, '--base-url', llm.url, '--api-key', 'k', '--filter', 'weather-paris', '--shard', shard])).code).toBe(0)
  }, 90_000)
  afterAll(async () => llm.close())

  test("each shard writes its own page, with its suffix; the merge writes the merged document's", async () => {
    process.chdir(dir)
    expect(existsSync('eval-report.shard-1-of-2.html')).toBe(true)
    expect(existsSync('eval-report.shard-2-of-2.html')).toBe(true)
    const merged = await runCli(['merge', 'eval-results.shard-*.json'])
    expect(merged.code).toBe(0)
    expect(merged.stdout).toContain('HTML:    eval-report.html\n')
    const doc = pageDocument('eval-report.html')
    expect(doc).toEqual(resultsDocument('eval-results.json'))
    expect(doc.shard).toBeNull()
  })

  test("a page over one of the shards' documents is refused before anything is written", async () => {
    process.chdir(dir)
    const before = readFileSync('eval-results.shard-1-of-2.json', 'utf8')
    const refused = await runCli(['merge', 'eval-results.shard-*.json', '--html', 'eval-results.shard-1-of-2.json'])
    expect(refused.code).toBe(2)
    expect(readFileSync('eval-results.shard-1-of-2.json', 'utf8')).toBe(before)
  })
})
