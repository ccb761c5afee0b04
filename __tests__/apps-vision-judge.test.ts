import { afterEach, describe, expect, test } from '@jest/globals'
import { PNG } from 'pngjs'
import { answer, startScriptedLlm, type ChatRequestBody, type Responder, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { createChatClient } from '../src/llm/chat.js'
import { createVisionJudge, parseVisionVerdict } from '../src/scoring/vision-judge.js'

// app.judge's vision judge against the scripted OpenAI-compatible server, through the real
// openai client: what goes over the wire (the screenshot as a PNG data URL) and how the answer is read.

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
