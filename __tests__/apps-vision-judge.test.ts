import { afterEach, describe, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PNG } from 'pngjs'
import { fixturePath } from '../__fixtures__/harness.js'
import { runOptions } from '../__fixtures__/options.js'
import { answer, startScriptedLlm, type ChatRequestBody, type Responder, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { openAppHost } from '../src/apps/host.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { createChatClient } from '../src/llm/chat.js'
import { createVisionJudge, parseVisionVerdict } from '../src/scoring/vision-judge.js'

// app.judge's vision judge against the scripted OpenAI-compatible server, through the real
// openai client: what goes over the wire (the screenshot as a PNG data URL) and how the answer is
// read; then end to end, in headless Chromium (skipped, saying why, where no browser is found).

const probe = await openAppHost({ chromePath: '', env: process.env, outputDir: tmpdir(), renderTimeoutMs: 1000, concurrency: 1, secrets: [] })
await probe.host?.close()
const describeWithBrowser = probe.host ? describe : describe.skip
if (!probe.host) console.warn(`apps-vision-judge: the end-to-end test is skipped: ${probe.reason}`)

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** A 4×3 PNG of one colour: a real image, as a screenshot is. */
function smallPng(): Buffer {
  const png = new PNG({ width: 4, height: 3 })
  png.data.fill(200)
  return PNG.sync.write(png)
}

/** The content parts of the request's user message (the scripted server's type says string: the judge sends a list). */
type Part = { type: string; text?: string; image_url?: { url: string } }
function userParts(request: ChatRequestBody): Part[] {
  const user = request.messages.find((m) => m.role === 'user')
  expect(Array.isArray(user?.content)).toBe(true)
  return user!.content as unknown as Part[]
}

let llm: ScriptedLlm | null = null
afterEach(async () => {
  await llm?.close()
  llm = null
})

async function judgeWith(responder: Responder) {
  llm = await startScriptedLlm(responder)
  return createVisionJudge(createChatClient({ baseURL: llm.url, apiKey: 'test-key', maxRetries: 0 }), 'judge/default-vision')
}

const input = { rubric: 'A list titled Groceries with two items.', png: smallPng(), model: null, context: 'the view of show_list (ui://apps/list)' }

describe('createVisionJudge', () => {
  test('sends the rubric and the screenshot as a PNG data URL to the default model, and reads the score and reason', async () => {
    const judge = await judgeWith((request) => answer(request.model, '{"score": 8, "reason": "The title and both items show."}'))
    const verdict = await judge(input, new AbortController().signal)
    expect(verdict).toEqual({ score: 8, reason: 'The title and both items show.' })

    expect(llm!.requests).toHaveLength(1)
    const request = llm!.requests[0]!
    expect(request.model).toBe('judge/default-vision')
    expect(request.temperature).toBe(0)
    expect(request.messages[0]).toMatchObject({ role: 'system' })
    expect(request.messages[0]!.content).toContain('0 to 10')
    const parts = userParts(request)
    const text = parts.find((p) => p.type === 'text')!.text!
    expect(text).toContain(input.rubric)
    expect(text).toContain(input.context)
    const image = parts.find((p) => p.type === 'image_url')!
    const url = image.image_url!.url
    expect(url.startsWith('data:image/png;base64,')).toBe(true)
    const bytes = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64')
    expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE)
    expect(bytes.equals(input.png)).toBe(true)
  })

  test("the test's own model wins over the default; an answer in a ```json fence is read, its score clamped to 0–10", async () => {
    const judge = await judgeWith((request) => answer(request.model, 'Here is my verdict:\n```json\n{"reason": "Everything is there.", "score": "12"}\n```'))
    const verdict = await judge({ ...input, model: 'openai/gpt-4o' }, new AbortController().signal)
    expect(llm!.requests[0]!.model).toBe('openai/gpt-4o')
    expect(verdict).toEqual({ score: 10, reason: 'Everything is there.' })
  })

  test('an answer without a numeric score rejects, quoting the start of the answer', async () => {
    const judge = await judgeWith((request) => answer(request.model, 'The view looks fine to me, I would say quite good overall.'))
    await expect(judge(input, new AbortController().signal)).rejects.toThrow(/the vision judge's answer has no JSON object: "The view looks fine to me/)
  })

  test('an aborted signal stops the request', async () => {
    const judge = await judgeWith((request) => ({ ...answer(request.model, '{"score": 5, "reason": "late"}'), delayMs: 5000 }))
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const started = performance.now()
    await expect(judge(input, controller.signal)).rejects.toThrow()
    expect(performance.now() - started).toBeLessThan(3000)
  })
})

describe('parseVisionVerdict', () => {
  test('a negative score is clamped to 0, a missing reason is said to be missing', () => {
    expect(parseVisionVerdict('{"score": -3}')).toEqual({ score: 0, reason: '(no reason given)' })
  })

  test('a score that is not a number is an error naming what is missing, the answer cut short', () => {
    const long = `{"score": "high", "reason": "${'x'.repeat(500)}"}`
    const error = (() => {
      try {
        parseVisionVerdict(long)
      } catch (e) {
        return e as Error
      }
      return null
    })()
    expect(error?.message).toMatch(/^the vision judge's answer has no numeric "score": "\{\\"score\\": \\"high\\"/)
    expect(error!.message.length).toBeLessThan(300)
  })

  test('an empty answer says so', () => {
    expect(() => parseVisionVerdict('')).toThrow('the vision judge\'s answer has no JSON object: "(empty)"')
  })
})

/** Two app tests of show_list's view: the scripted judge scores 9 a rubric naming Groceries, 3 any other. */
const SUITE = `judge_model: judge/suite-default
tool_tests:
  - id: list-judged-good
    tool: show_list
    args: { title: Groceries, items: [apples, bread] }
    app:
      judge: { rubric: "A list titled Groceries with its items.", threshold: 0.8 }
  - id: list-judged-bad
    tool: show_list
    args: { title: Groceries, items: [apples, bread] }
    app:
      judge: { rubric: "A bar chart of the weather.", threshold: 0.5, model: vision/own-model }
`

describeWithBrowser('app.judge end to end', () => {
  test("evaluate() sends each view's screenshot to the endpoint at base_url; the judge's score decides the assertion and the test", async () => {
    llm = await startScriptedLlm((request) => {
      const text = userParts(request).find((p) => p.type === 'text')?.text ?? ''
      const score = text.includes('Groceries') ? 9 : 3
      return answer(request.model, `\`\`\`json\n{"score": ${score}, "reason": "scripted ${score}"}\n\`\`\``)
    })
    const dir = mkdtempSync(join(tmpdir(), 'apps-vision-'))
    writeFileSync(join(dir, 'evals.yaml'), SUITE)
    const server = JSON.stringify({ command: process.execPath, args: [fixturePath('servers/apps-server.mjs')] })
    const p = prepare(runOptions(dir, { serverConfig: server, conformance: 'off', baseUrl: llm.url, outputDir: join(dir, 'out') }), {})
    const doc = await evaluate(p, {})

    const judged = (id: string) => {
      const t = doc.tool_tests!.tests.find((x) => x.id === id)!
      return { status: t.status, check: t.attempts[0]!.steps[0]!.app!.assertions.find((a) => a.check === 'judge')! }
    }
    const good = judged('list-judged-good')
    expect(good.status).toBe('passed')
    expect(good.check).toMatchObject({ passed: true, score: 9, actual: 9, expected: 0.8 })
    expect(good.check.reason).toContain('scripted 9')
    const bad = judged('list-judged-bad')
    expect(bad.status).toBe('failed')
    expect(bad.check).toMatchObject({ passed: false, score: 3, expected: 0.5 })

    expect(llm.requests.map((r) => r.model).sort()).toEqual(['judge/suite-default', 'vision/own-model'])
    for (const request of llm.requests) {
      const url = userParts(request).find((part) => part.type === 'image_url')!.image_url!.url
      expect(url.startsWith('data:image/png;base64,')).toBe(true)
      const bytes = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64')
      expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE)
      // The screenshot of the rendered view, not a placeholder: a viewport's worth of pixels.
      const decoded = PNG.sync.read(bytes)
      expect(decoded.width).toBeGreaterThan(100)
      expect(decoded.height).toBeGreaterThan(100)
    }
  }, 120_000)
})
