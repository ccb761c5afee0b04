import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import MarkdownIt from 'markdown-it'
import { fixturePath } from '../__fixtures__/harness.js'
import { answer, kindOf, startScriptedLlm, steps, toolCalls, userPrompt, verdict, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { runOptions } from '../__fixtures__/options.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { createChatClient } from '../src/llm/chat.js'
import { renderComment } from '../src/report/comment.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import type { ResultsDocument } from '../src/results/types.js'

// The failing pull request, evaluated for real: the example server over stdio, a scripted
// model on 127.0.0.1 that calls get_weather where the case expects get_local_time first — on every
// model and prompt — while the judge scores every answer well. A baseline run first, where it called
// the right tool. The comment must say that once, for the case, before anything else.

const SUITE = `system_prompts:
  default: "You are a travel assistant."
  terse: "Answer in one sentence."
models: [m/alpha, m/beta]
judge_model: j/judge
cases:
  - id: weather-paris
    prompt: What is the weather in Paris, and what time is it there?
    rubric: Gives the weather and the local time in Paris.
    expect_tool: get_local_time
  - id: convert
    prompt: How many US dollars is 250 euros?
    rubric: Gives the amount in US dollars.
    expect_tool: convert_currency
    expect_args: { to: USD }
  - id: tokyo
    prompt: Which time zone is Tokyo in?
    rubric: Names Asia/Tokyo.
    expect_tool: get_local_time
  - id: greeting
    prompt: Hello!
    rubric: Greets the user.
`

/** What the model does now: 'baseline' (the right calls) or 'broken' (the pull request). */
let mode: 'baseline' | 'broken' = 'baseline'
let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm((request) => {
    const kind = kindOf(request)
    if (kind === 'steps') return steps(request.model)
    if (kind === 'score') return verdict(request.model, 9, 'answers what was asked')
    if (request.messages.some((m) => m.role === 'tool')) return answer(request.model, 'Here you are.')
    const prompt = userPrompt(request)
    // Tokyo: m/alpha calls the wrong tool, m/beta none at all; two reasons for one case.
    if (prompt.includes('Tokyo') && mode === 'broken') return request.model === 'm/alpha' ? toolCalls(request.model, [{ name: 'get_weather', args: { city: 'Tokyo' } }]) : answer(request.model, 'Asia/Tokyo.')
    if (prompt.includes('Tokyo')) return toolCalls(request.model, [{ name: 'get_local_time', args: { city: 'Tokyo' } }])
    if (prompt.includes('Paris')) return toolCalls(request.model, [{ name: mode === 'broken' ? 'get_weather' : 'get_local_time', args: { city: 'Paris' } }])
    // Only m/beta converts to the wrong currency in the pull request.
    if (prompt.includes('euros')) return toolCalls(request.model, [{ name: 'convert_currency', args: { amount: 250, from: 'EUR', to: mode === 'broken' && request.model === 'm/beta' ? 'GBP' : 'USD' } }])
    return answer(request.model, 'Hello! I can help with weather, currency and times.')
  })
})
afterAll(async () => llm.close())

const options = (dir: string, values: Record<string, string>) =>
  runOptions(dir, { serverConfig: JSON.stringify({ command: process.execPath, args: [fixturePath('../examples/server/server.mjs')] }), baseUrl: llm.url, conformance: 'off', ...values })

const evaluateWith = (dir: string, values: Record<string, string> = {}) =>
  evaluate(prepare(options(dir, values), {}), { llm: createChatClient({ baseURL: llm.url, apiKey: 'k', maxRetries: 0 }), onWarning: () => {} })

const CONTEXT = { marker: '<!-- mcp-server-evals:sticky:MCP evals/evals -->', links: {} }

/** The text of a section of a comment: from its heading to the next one. */
const section = (body: string, heading: string) => {
  const start = body.indexOf(heading)
  expect(start).toBeGreaterThan(-1)
  const end = body.indexOf('\n#### ', start + heading.length)
  return body.slice(start, end === -1 ? undefined : end)
}

describe('one case failing in every run, for one reason', () => {
  let doc: ResultsDocument
  let body: string
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'failures-'))
    writeFileSync(join(dir, 'evals.yaml'), SUITE)
    mode = 'baseline'
    const baseline = await evaluateWith(dir)
    expect(baseline.passed).toBe(true)
    writeFileSync(join(dir, 'baseline.json'), JSON.stringify(baseline))
    mode = 'broken'
    doc = await evaluateWith(dir, { baseline: join(dir, 'baseline.json'), resultsPath: join(dir, 'now.json') })
    body = renderComment(doc, CONTEXT)
  }, 60_000)

  test('the comment says it once, for the case: every model and prompt, the check and what was called', () => {
    expect(doc.passed).toBe(false)
    expect(doc.summary).toMatchObject({ total: 16, passed: 6, failed: 10 })
    const failures = section(body, '#### Did not pass')
    expect(failures.split('\n')[0]).toBe('#### Did not pass — 10 runs in 3 cases')
    // The reason once, not once per run.
    const weather = failures.split('\n').filter((line) => line.includes('weather-paris'))
    expect(weather).toEqual(['- ✗ `weather-paris` **▼ regressed** — 4 of 4 runs failed, every model and prompt — expect\\_tool: expected get\\_local\\_time first; called get\\_weather'])
    // Two reasons for one case: each once, under it, with the runs that gave it.
    expect(failures).toContain(
      [
        '- ✗ `tokyo` **▼ regressed** — 4 of 4 runs failed, every model and prompt:',
        '  - expect\\_tool: expected get\\_local\\_time first; called get\\_weather (2 runs: `m/alpha` · default, `m/alpha` · terse)',
        '  - expect\\_tool: expected get\\_local\\_time; no tool was called (2 runs: `m/beta` · default, `m/beta` · terse)\n'
      ].join('\n')
    )
    // The case that failed on one model only says where.
    expect(failures).toContain('- ✗ `convert` **▼ regressed** — 2 of 4 runs failed, on `m/beta`, every prompt — expect\\_args: no call of convert\\_currency matched: to\\="GBP" \\(expected "USD"\\)\n')
    expect(failures).not.toContain('greeting')
  })

  test('verdict → what failed → the metrics that moved (the rest in a line) → the matrix → the baseline runs', () => {
    const at = (text: string) => {
      const i = body.indexOf(text)
      expect(i).toBeGreaterThan(-1)
      return i
    }
    const order = [at('### MCP Server Evals — ✗ failed'), at('#### Did not pass'), at('#### What changed since the baseline'), at('#### Results'), at("the baseline's run and this one</summary>")]
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    const changed = section(body, '#### What changed since the baseline')
    expect(changed).toContain('<tr><td>Run pass rate</td><td align="right">100%</td><td align="right">37.5%</td><td align="right">▼ −62.5 pt, worse</td>')
    expect(changed).not.toMatch(/<td align="right">unchanged<\/td>/)
    expect(changed).toContain("\n3 metrics unchanged: Task completion (judge) 100% · Calls outside the input schema 0% · Tool error rate 0%\n")
    // Each regressed run's block says why it fails now, below the reason above.
    expect(body).toContain('**Why it fails now:** expect\\_tool: expected get\\_local\\_time first; called get\\_weather')
  })

  test('the report: the verdict in its first heading, the failures before what changed', () => {
    const report = renderMarkdownReport(doc)
    expect(report.split('\n')[0]).toBe('# Eval Report — ✗ failed')
    expect(report).toContain('- ✗ `weather-paris` **▼ regressed** — 4 of 4 runs failed, every model and prompt — expect\\_tool: expected get\\_local\\_time first; called get\\_weather\n')
    expect(report.indexOf('## Did not pass')).toBeLessThan(report.indexOf('## What changed since the baseline'))
    // Rendered as GitHub would, the case is one list item.
    const html = new MarkdownIt({ html: true }).render(section(body, '#### Did not pass'))
    expect([...html.matchAll(/<li>/g)]).toHaveLength(5)
  })
})
