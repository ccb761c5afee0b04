import type { AppJudgeFn } from '../apps/types.js'
import type { ChatClient, ChatMessage } from '../llm/chat.js'
import { ellipsize } from '../util/text.js'
import { extractJson } from './geval.js'

/**
 * The vision judge of `app.judge` (issue 30): one chat completion that shows a vision-capable
 * model the screenshot of a rendered MCP App view, as a PNG data URL, with the rubric, and reads
 * back `{"score": 0–10, "reason": "…"}`. The threshold is compared by judgeAssertion
 * (src/apps/assertions.ts): score / 10 against the evals/v1 0–1 threshold.
 */

const SYSTEM_PROMPT = [
  'You are an evaluator of user interfaces. You are shown a screenshot of a rendered MCP App view (an interactive view a tool returned, as a chat host displays it) and a rubric.',
  'Judge only what the screenshot shows against the rubric, and return a JSON object with two fields:',
  '- "score": a number from 0 to 10, 10 meaning the view fully meets the rubric and 0 meaning it does not meet it at all.',
  '- "reason": a brief explanation naming what in the view meets or misses the rubric. Do not quote the score in it.',
  'Answer with the JSON object alone, e.g. {"score": 7, "reason": "…"}.'
].join('\n')

/** The messages of one judgement: the instructions, then the rubric and context as text and the screenshot as an image. */
export function visionJudgeMessages(input: { rubric: string; png: Buffer; context: string }): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    {
      role: 'user',
      content: [
        { type: 'text', text: `Rubric:\n${input.rubric}\n\nThe screenshot is ${input.context}.` },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${input.png.toString('base64')}` } }
      ]
    }
  ]
}

/**
 * `{score, reason}` from the judge's answer (the first JSON object in it, fenced or not): the score
 * a number or a numeric string, clamped to 0–10. Throws, quoting the start of the answer, when
 * there is no such score.
 */
export function parseVisionVerdict(text: string): { score: number; reason: string } {
  const json = extractJson(text) as { score?: unknown; reason?: unknown } | undefined
  const raw = json?.score
  const score = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN
  if (!Number.isFinite(score)) {
    const why = json === undefined ? 'no JSON object' : 'no numeric "score"'
    throw new Error(`the vision judge's answer has ${why}: ${JSON.stringify(ellipsize(text.trim() || '(empty)', 200))}`)
  }
  const reason = typeof json?.reason === 'string' && json.reason.trim() !== '' ? json.reason.trim() : '(no reason given)'
  return { score: Math.min(10, Math.max(0, score)), reason }
}

/** A judge for app.judge on `llm`: `model` when the test names one, else `defaultModel` (the suite's judge_model); temperature 0. */
export function createVisionJudge(llm: ChatClient, defaultModel: string): AppJudgeFn {
  return async ({ rubric, png, model, context }, signal) => {
    const response = await llm.complete({ model: model ?? defaultModel, messages: visionJudgeMessages({ rubric, png, context }), temperature: 0 }, signal)
    return parseVisionVerdict(response.content ?? '')
  }
}
