import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pullRequestEnv, startFakeGitHub } from '../__fixtures__/fake-github.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { demoBrain } from '../examples/demo-model/brain.js'
import type { ResultsDocument } from '../src/results/types.js'

// The action's shard and merge modes as the runner runs them: real processes (the sources, through
// tsx), on a pull_request event, against a fake GitHub REST API and a scripted model on 127.0.0.1.

const root = fixturePath('..')
const SUITE = `models: [openai/gpt-4o-mini]
system_prompts: { default: "You are a helpful travel assistant." }
cases:
  - { id: weather-paris, prompt: "What's the weather like in Paris right now?", rubric: The answer states the weather in Paris., required_tools: [get_weather] }
  - { id: greeting, prompt: "Hi! What can you help me with?", rubric: The answer says what it can help with., required_tools: null, runs: 2 }
`

/** The action in `cwd`, with its runner files (outputs, summary, event) in `runner`, a directory of its own. */
async function runAction(cwd: string, runner: string, apiUrl: string, inputs: Record<string, string>) {
  mkdirSync(runner, { recursive: true })
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...pullRequestEnv(runner, apiUrl) }
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value
  const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'src/index.ts')], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stdout += d.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, stdout, outputs: readOutputs(join(runner, 'out')) }
}

/** GITHUB_OUTPUT's `name<<delimiter` blocks, as a map. */
function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  for (const m of readFileSync(file, 'utf8').matchAll(/^(\w+)<<(ghadelimiter_[\w-]+)\n([\s\S]*?)\n\2$/gm)) outputs[m[1]] = m[3]
  return outputs
}

const readDoc = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as ResultsDocument

let llm: ScriptedLlm
let api: Awaited<ReturnType<typeof startFakeGitHub>>
let work: string
beforeAll(async () => {
  llm = await startScriptedLlm(demoBrain)
  api = await startFakeGitHub()
  work = mkdtempSync(join(tmpdir(), 'merge-action-'))
})
afterAll(async () => {
  await llm.close()
  await api.close()
})

/** The inputs of one shard job of the matrix (the merge job has none of these). */
const shardInputs = (dir: string, shard: string) => {
  writeFileSync(join(dir, 'evals.yaml'), SUITE)
  return {
    server_config: JSON.stringify({ command: process.execPath, args: [join(root, 'examples/server/server.mjs')] }),
    eval_cases: 'evals.yaml',
    openrouter_api_key: 'sk-or-test-key',
    base_url: llm.url,
    github_token: 'ghs_fake_token_123',
    cache: 'off',
    shard
  }
}

describe('the action: shards, then the merge job', () => {
  test('each shard writes its own files under its own artifact name, and no PR comment', async () => {
    const shards = await Promise.all(['1/2', '2/2'].map((shard, i) => runAction(work, join(work, `runner-${i + 1}`), api.url, shardInputs(work, shard))))
    for (const [i, shard] of shards.entries()) {
      const label = `shard-${i + 1}-of-2`
      expect({ i, code: shard.code }).toEqual({ i, code: 0 })
      expect(shard.stdout).toContain(`Shard ${i + 1} of 2: its share of the plan`)
      expect(shard.stdout).toContain(`results in the artifact mcp-server-evals-${label}`)
      expect(shard.outputs).toMatchObject({ results_json: `eval-results.${label}.json`, report_md: `eval-report.${label}.md`, junit_xml: `eval-junit.${label}.xml`, journal: `eval-runs.${label}.jsonl` })
    }
    // Not one request to the API: no comment, and no lookup for one.
    expect(api.requests).toEqual([])
    expect([1, 2].map((i) => readDoc(join(work, `eval-results.shard-${i}-of-2.json`)).shard?.index)).toEqual([1, 2])
  }, 120_000)

  test('the merge job posts the one sticky comment with the verdict of the whole suite; a second merge updates it', async () => {
    const merge = { merge: 'eval-results.shard-*.json', github_token: 'ghs_fake_token_123' }
    const first = await runAction(work, join(work, 'runner-merge'), api.url, merge)
    expect(first.code).toBe(0)
    expect(first.stdout).toContain('Merging 2 shards: 3 planned runs in 2 groups (case × model × prompt)')
    expect(first.stdout).toMatch(/^PASSED: conformance passed · 3\/3 passed \(100%\)/m)
    expect(first.outputs).toMatchObject({ results_json: 'eval-results.json', report_md: 'eval-report.md', junit_xml: 'eval-junit.xml', badge_json: 'eval-badge.json', journal: 'eval-runs.jsonl', passed: 'true', total: '3' })
    expect(api.comments).toHaveLength(1)
    expect(api.comments[0]!.body).toContain('### MCP Server Evals — ✓ passed')
    expect(api.comments[0]!.body.endsWith('<!-- mcp-server-evals:sticky:MCP evals/evals -->')).toBe(true)
    expect(first.outputs.comment_url).toBe(api.comments[0]!.html_url)
    const doc = readDoc(join(work, 'eval-results.json'))
    expect(doc).toMatchObject({ shard: null, passed: true, summary: { total: 3 } })
    expect(readFileSync(join(work, 'runner-merge/summary'), 'utf8')).toContain('# Eval Report')
    // Masked, and never printed otherwise.
    expect(first.stdout.split('\n').filter((l) => l.includes('ghs_fake_token_123'))).toEqual(['::add-mask::ghs_fake_token_123'])

    const second = await runAction(work, join(work, 'runner-merge-2'), api.url, merge)
    expect(second.code).toBe(0)
    expect(api.comments).toHaveLength(1)
    expect(api.requests.filter((r) => r.method === 'POST').length).toBe(1)
    expect(api.requests.filter((r) => r.method === 'PATCH').length).toBe(1)
  }, 120_000)

  test('shard and merge together are a configuration error naming both; the outputs still exist (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'merge-action-both-'))
    const result = await runAction(dir, join(dir, 'runner'), api.url, { merge: 'eval-results.shard-*.json', shard: '1/2' })
    expect(result.code).toBe(2)
    expect(result.stdout).toContain("::error::input 'merge': cannot be set together with shard: a job either runs one shard (shard) or merges the shards' results (merge)")
    expect(result.outputs).toMatchObject({ passed: 'false', results_json: 'eval-results.json', total: '0' })
    expect(readDoc(join(dir, 'eval-results.json')).fatal_error).toContain('cannot be set together with shard')
  }, 60_000)

  test('a shard whose evaluation could not run is named by the merge, which fails as a configuration error (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'merge-action-fatal-'))
    copyFileSync(join(work, 'eval-results.shard-1-of-2.json'), join(dir, 'eval-results.shard-1-of-2.json'))
    // Shard 2's job had a bad eval_cases path: it still wrote (and would upload) its results document.
    const broken = await runAction(dir, join(dir, 'runner-shard'), api.url, { ...shardInputs(dir, '2/2'), eval_cases: 'missing.yaml', github_token: '' })
    expect(broken.code).toBe(2)
    expect(broken.outputs.results_json).toBe('eval-results.shard-2-of-2.json')
    const result = await runAction(dir, join(dir, 'runner-merge'), api.url, { merge: 'eval-results.shard-*.json' })
    expect(result.code).toBe(2)
    expect(result.stdout).toMatch(/::error::input 'merge': eval-results\.shard-2-of-2\.json: this shard's evaluation could not run: input 'eval_cases' missing\.yaml: cannot read eval cases file/)
    expect(result.outputs).toMatchObject({ passed: 'false', results_json: 'eval-results.json' })
    expect(readDoc(join(dir, 'eval-results.json')).fatal_error).toContain('eval-results.shard-2-of-2.json')
  }, 60_000)
})
