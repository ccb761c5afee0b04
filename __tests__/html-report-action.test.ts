import { afterAll, beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals'
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import * as core from '../__fixtures__/core.js'
import { pullRequestEnv, startFakeGitHub } from '../__fixtures__/fake-github.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { answer, kindOf, startScriptedLlm, steps, verdict, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import type { ResultsDocument } from '../src/results/types.js'

// The action's glue for eval-report.html: written, in the artifact, uploaded again on its own
// (non-zipped, under a unique name) before the PR comment, which links the failed run into it.

/** Every upload the action asked the artifact service for, and how many comments existed then. */
interface Upload {
  name: string
  files: string[]
  root: string
  options: { skipArchive?: boolean; retentionDays?: number }
  commentsBefore: number
  /** The single file's text, for a non-zipped upload (the copy may be gone later). */
  text?: string
}
const uploads: Upload[] = []
let failHtmlUpload = false

const api = await startFakeGitHub()
const savedEnv = { ...process.env }
const runner = realpathSync(mkdtempSync(join(tmpdir(), 'html-action-runner-')))
Object.assign(process.env, pullRequestEnv(runner, api.url), { ACTIONS_RUNTIME_TOKEN: 'x', ACTIONS_RESULTS_URL: 'http://127.0.0.1:9/' })

const realCore = await import('@actions/core')
jest.unstable_mockModule('@actions/core', () => ({ ...realCore, ...core }))
jest.unstable_mockModule('@actions/artifact', () => ({
  DefaultArtifactClient: class {
    async uploadArtifact(name: string, files: string[], root: string, options: Upload['options']) {
      if (options.skipArchive && failHtmlUpload) throw new Error('the service said no')
      uploads.push({ name, files, root, options, commentsBefore: api.comments.length, text: options.skipArchive ? readFileSync(files[0], 'utf8') : undefined })
      return { id: options.skipArchive ? 202 : 101, size: 1 }
    }
  }
}))
const { run } = await import('../src/main.js')

const RUN = 'https://github.com/octo/server/actions/runs/42'

describe('run() with html_report', () => {
  let llm: ScriptedLlm
  let cwd: string
  const startDir = process.cwd()
  beforeAll(async () => {
    llm = await startScriptedLlm((req) => (kindOf(req) === 'steps' ? steps(req.model) : kindOf(req) === 'score' ? verdict(req.model, 3, 'weak') : answer(req.model, `I was told: ${req.messages[0].content}`)))
  })
  afterAll(async () => {
    await llm.close()
    await api.close()
    process.chdir(startDir)
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key]
    Object.assign(process.env, savedEnv)
  })
  beforeEach(() => {
    cwd = realpathSync(mkdtempSync(join(tmpdir(), 'html-action-')))
    process.chdir(cwd)
    process.env.RUNNER_TEMP = cwd
    uploads.length = 0
    api.comments.length = 0
    failHtmlUpload = false
    for (const key of Object.keys(core.inputs)) delete core.inputs[key]
    for (const mock of [core.setOutput, core.setFailed, core.warning, core.info]) mock.mockClear()
    Object.assign(core.inputs, {
      server_config: JSON.stringify({ command: process.execPath, args: [fixturePath('../examples/server/server.mjs')], env: { DB_PASSWORD: 'hunter2-very-secret' } }),
      eval_cases: 'evals.yaml',
      openrouter_api_key: 'sk-or-v1-abcdef',
      base_url: llm.url,
      conformance: 'off',
      github_token: 'ghs_fake_token_123'
    })
    writeFileSync('evals.yaml', 'system_prompts: {d: "Say hunter2-very-secret"}\ncases:\n  - {id: one, prompt: hello, rubric: greets}\n')
  })

  const failedIndex = () => (JSON.parse(readFileSync('eval-results.json', 'utf8')) as ResultsDocument).runs[0].index
  const outputs = () => Object.fromEntries(core.setOutput.mock.calls)

  test('the page is written, named, in the artifact, uploaded again non-zipped under a unique name, and the comment links the failed run into it', async () => {
    expect(await run()).toBe(1)
    expect(outputs().report_html).toBe('eval-report.html')
    const html = readFileSync('eval-report.html', 'utf8')
    // Redacted as every other file.
    expect(html).not.toContain('hunter2-very-secret')
    expect(uploads).toHaveLength(2)
    const [results, page] = uploads
    expect(results.name).toBe('mcp-server-evals')
    expect(results.files).toContain(resolve('eval-report.html'))
    expect(results.options.skipArchive).toBeUndefined()
    // With skipArchive the artifact is named after its file: a copy of its own name, outside the workspace.
    expect(page.name).toBe('mcp-server-evals-report.html')
    expect(page.options.skipArchive).toBe(true)
    expect(page.files).toHaveLength(1)
    expect(basename(page.files[0])).toBe('mcp-server-evals-report.html')
    expect(page.root).toBe(dirname(page.files[0]))
    expect(page.text).toBe(html)
    // Both uploads before the comment, so that it knows their ids.
    expect(uploads.map((u) => u.commentsBefore)).toEqual([0, 0])
    expect(api.comments).toHaveLength(1)
    const body = api.comments[0].body
    expect(body).toContain(`[run #${failedIndex()}](${RUN}/artifacts/202#run-${failedIndex()})`)
    expect(body).toContain(`Full report: [job summary](${RUN}) · [artifact](${RUN}/artifacts/101) · [HTML report](${RUN}/artifacts/202)`)
  }, 60_000)

  test('artifact_name and retention_days carry over to the HTML artifact', async () => {
    Object.assign(core.inputs, { artifact_name: 'suite-a', retention_days: '3' })
    await run()
    expect(uploads.map((u) => [u.name, u.options.retentionDays])).toEqual([
      ['suite-a', 3],
      ['suite-a-report.html', 3]
    ])
  }, 60_000)

  test('html_report: false — no page, one upload, and the comment as before', async () => {
    core.inputs.html_report = 'false'
    expect(await run()).toBe(1)
    expect(() => readFileSync('eval-report.html')).toThrow()
    expect(outputs().report_html).toBeUndefined()
    expect(uploads.map((u) => u.name)).toEqual(['mcp-server-evals'])
    expect(uploads[0].files.some((f) => f.endsWith('.html'))).toBe(false)
    const body = api.comments[0].body
    expect(body).not.toMatch(/#run-\d|HTML report/)
    expect(body).toContain(`Full report: [job summary](${RUN}) · [artifact](${RUN}/artifacts/101)`)
  }, 60_000)

  test('upload_artifact: false uploads neither', async () => {
    core.inputs.upload_artifact = 'false'
    await run()
    expect(uploads).toEqual([])
    expect(readFileSync('eval-report.html', 'utf8')).toContain('<!doctype html>')
    expect(api.comments[0].body).not.toMatch(/#run-\d|HTML report/)
  }, 60_000)

  test('a failed HTML upload is a warning: the step fails only for its verdict, the comment has no link into a page', async () => {
    failHtmlUpload = true
    expect(await run()).toBe(1)
    expect(core.warning).toHaveBeenCalledWith('Could not upload the HTML report as the artifact mcp-server-evals-report.html: the service said no')
    expect(core.setFailed).toHaveBeenCalledTimes(1)
    expect(core.setFailed).toHaveBeenCalledWith(expect.stringContaining('did not pass'))
    expect(api.comments[0].body).not.toMatch(/#run-\d|HTML report/)
  }, 60_000)

  test('html_report: yes is a configuration error naming the input', async () => {
    core.inputs.html_report = 'yes'
    expect(await run()).toBe(2)
    expect(core.setFailed).toHaveBeenCalledWith("input 'html_report': must be true or false, got 'yes'")
  }, 60_000)
})
