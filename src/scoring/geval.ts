import { ellipsize } from '../util/text.js'
import { createPool } from '../util/pool.js'
import { addUsage, emptyUsage, type ChatClient, type ChatMessage, type ChatResponse, type TokenLogprob, type TokenUsage } from '../llm/chat.js'
import type { ScoringMode } from '../results/scoring.js'


/** A GEval verdict for one run. `score` is 0–1; pass is `score >= threshold`. */
export interface JudgeVerdict {
  model: string
  score: number
  raw_score: number
  reason: string
  threshold: number
  success: boolean
  scoring_mode: ScoringMode
  /** Why the mode is what it is (e.g. "provider returned no logprobs"). */
  scoring_note: string
  evaluation_steps: string[]
  usage: TokenUsage
  attempts: number
}

export class JudgeError extends Error {
  constructor(
    message: string,
    readonly usage: TokenUsage
  ) {
    super(message)
    this.name = 'JudgeError'
  }
}

export interface Judge {
  readonly stepGenerationUsage: TokenUsage
  /**
   * Start generating the evaluation steps of these rubrics now, in parallel with the first agent
   * turns, so no judge waits for them in its pool slot; nothing once `signal` is aborted. Never
   * throws: a generation that fails (or is cancelled with `signal`) is not kept, and the first
   * judge of that rubric asks again.
   */
  prepare(rubrics: Iterable<string>, signal?: AbortSignal, concurrency?: number): void
  /** `attempt` keeps repeats' verdicts apart in the response cache: judge variance is part of what repeats measure. */
  /** `image`: a data URL (an evals/v1 `judge.screenshot: true`: the last rendered MCP Apps view), shown to the judge after the prompt. */
  judge(input: { rubric: string; threshold: number; input: string; actualOutput: string; attempt?: number; image?: string }, signal?: AbortSignal): Promise<JudgeVerdict>
}

/** The judge sees what eval-action's judge sees: the case prompt and the final answer. */
const EVALUATION_PARAMS = ['Input', 'Actual Output'] as const
const MAX_ATTEMPTS = 3
/** Said after the prompt when the judge is shown a screenshot too. */
const SCREENSHOT_NOTE = 'The image is a screenshot of the MCP App view the tools returned, as the user saw it: judge it with the answer.'

/**
 * GEval as DeepEval defines it: evaluation steps generated once per (rubric, judge model) and
 * reused by every run, then one scoring call per run that returns `{reason, score}` on 0–10,
 * probability-weighted over the score token's alternatives when the provider returns logprobs.
 */
export function createGEvalJudge(llm: ChatClient, model: string): Judge {
  const stepsByRubric = new Map<string, Promise<{ steps: string[]; usage: TokenUsage }>>()
  const stepGenerationUsage = emptyUsage()

  const stepsFor = (rubric: string, signal?: AbortSignal) => {
    let pending = stepsByRubric.get(rubric)
    if (!pending) {
      pending = generateSteps(llm, model, rubric, signal)
      stepsByRubric.set(rubric, pending)
      pending.then(
        (generated) => addUsage(stepGenerationUsage, generated.usage),
        // A failure is not cached: the next run asks again.
        () => stepsByRubric.delete(rubric)
      )
    }
    return pending
  }

  return {
    stepGenerationUsage,
    prepare(rubrics, signal, concurrency = 4) {
      if (signal?.aborted) return
      // At most `concurrency` at once, as the runs: a suite of sixty rubrics is not sixty requests in one burst (a 429 storm).
      const limiter = createPool(Math.max(1, concurrency))
      for (const rubric of new Set(rubrics)) limiter
          .run(async () => {
            if (!signal?.aborted) await stepsFor(rubric, signal)
          })
          .catch(() => undefined)
    },
    async judge({ rubric, threshold, input, actualOutput, attempt, image }, signal) {
      const usage = emptyUsage()
      // Steps are shared by every run of a rubric, so their tokens are counted once, in
      // stepGenerationUsage, and each verdict reports its own scoring tokens.
      const { steps } = await stepsFor(rubric, signal)
      const prompt = scoringPrompt(rubric, steps, input, actualOutput)
      const message: ChatMessage = image ? { role: 'user', content: [{ type: 'text', text: `${prompt}\n\n${SCREENSHOT_NOTE}` }, { type: 'image_url', image_url: { url: image } }] } : { role: 'user', content: prompt }
      let lastProblem = ''
      let wantLogprobs = true
      let note = ''
      for (let round = 1; round <= MAX_ATTEMPTS; round++) {
        let response: ChatResponse
        try {
          response = await llm.complete(
            { model, messages: [message], temperature: 0, logprobs: wantLogprobs, top_logprobs: 20, attempt, retry: round - 1 },
            signal
          )
        } catch (error) {
          // Some providers reject the logprobs parameter outright: ask again without it.
          if (wantLogprobs && isBadRequest(error)) {
            wantLogprobs = false
            note = 'provider rejected logprobs'
            continue
          }
          throw new JudgeError(`judge call failed: ${(error as Error).message}`, usage)
        }
        addUsage(usage, response.usage)
        const parsed = parseScore(response.content ?? '')
        if (!parsed) {
          lastProblem = `malformed judge output: ${ellipsize(response.content ?? '(empty)', 200)}`
          continue
        }
        const weighted = wantLogprobs ? weightedScore(response.logprobs, parsed.score) : undefined
        const mode: ScoringMode = weighted === undefined ? 'integer' : 'logprob'
        if (!note) note = mode === 'logprob' ? 'weighted by the score token probabilities' : response.logprobs ? 'score token not found in logprobs' : 'provider returned no logprobs'
        const score = (weighted ?? parsed.score) / 10
        return {
          model,
          score,
          raw_score: parsed.score,
          reason: parsed.reason,
          threshold,
          success: score >= threshold,
          scoring_mode: mode,
          scoring_note: note,
          evaluation_steps: steps,
          usage,
          attempts: round
        }
      }
      throw new JudgeError(`${lastProblem || 'judge gave no usable answer'} (after ${MAX_ATTEMPTS} attempts)`, usage)
    }
  }
}

async function generateSteps(llm: ChatClient, model: string, rubric: string, signal?: AbortSignal): Promise<{ steps: string[]; usage: TokenUsage }> {
  const usage = emptyUsage()
  const prompt = [
    'Given an evaluation criteria which outlines how you should judge the ' + EVALUATION_PARAMS.join(' and ') + ', generate 3-4 concise evaluation steps based on the criteria below.',
    'You MUST make it clear how to evaluate ' + EVALUATION_PARAMS.join(' and ') + ' in relation to one another.',
    '',
    'Evaluation Criteria:',
    rubric,
    '',
    '**',
    'IMPORTANT: Please make sure to only return in JSON format, with the "steps" key as a list of strings. No words or explanation is needed.',
    'Example JSON:',
    '{"steps": <list_of_strings>}',
    '**',
    '',
    'JSON:'
  ].join('\n')
  let problem = ''
  for (let round = 1; round <= MAX_ATTEMPTS; round++) {
    let response: ChatResponse
    try {
      response = await llm.complete({ model, messages: [{ role: 'user', content: prompt }], temperature: 0, retry: round - 1 }, signal)
    } catch (error) {
      throw new JudgeError(`generating evaluation steps failed: ${(error as Error).message}`, usage)
    }
    addUsage(usage, response.usage)
    const json = extractJson(response.content ?? '')
    const steps = (json as { steps?: unknown } | undefined)?.steps
    if (Array.isArray(steps) && steps.length > 0 && steps.every((s) => typeof s === 'string')) return { steps, usage }
    problem = `malformed evaluation steps: ${ellipsize(response.content ?? '(empty)', 200)}`
  }
  throw new JudgeError(`${problem} (after ${MAX_ATTEMPTS} attempts)`, usage)
}

function scoringPrompt(rubric: string, steps: string[], input: string, actualOutput: string): string {
  return [
    'You are an evaluator. Given the following evaluation steps, assess the response below and return a JSON object with two fields:',
    '',
    '- `"score"`: an integer between 0 and 10, with 10 indicating strong alignment with the evaluation steps and 0 indicating no alignment.',
    '- `"reason"`: a brief explanation for why the score was given. This must mention specific strengths or shortcomings, referencing relevant details from the input. Do **not** quote the score itself in the explanation.',
    '',
    "Your explanation should be concise and specific; focus on the most important aspects of the evaluation criteria.",
    '',
    'Evaluation Criteria:',
    rubric,
    '',
    'Evaluation Steps:',
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    '',
    'Input:',
    input,
    '',
    'Actual Output:',
    actualOutput,
    '',
    'Parameters:',
    EVALUATION_PARAMS.join(', '),
    '',
    '---',
    '**Example JSON:**',
    '{"reason": "your concise and informative reason here", "score": 0}',
    '',
    'JSON:'
  ].join('\n')
}

/** `{reason, score}` from the judge's text; the score must be an integer 0–10. */
export function parseScore(text: string): { score: number; reason: string } | undefined {
  const json = extractJson(text) as { score?: unknown; reason?: unknown } | undefined
  if (!json) return undefined
  const score = typeof json.score === 'string' ? Number(json.score) : json.score
  if (typeof score !== 'number' || !Number.isInteger(score) || score < 0 || score > 10) return undefined
  return { score, reason: typeof json.reason === 'string' ? json.reason : '' }
}

/** The first JSON object in a reply, tolerating code fences and chatter around it. */
export function extractJson(text: string): unknown {
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start < 0 || end <= start) return undefined
  try {
    return JSON.parse(text.slice(start, end + 1))
  } catch {
    return undefined
  }
}

/**
 * DeepEval's weighting: find the generated token equal to the raw score, scanning from the end
 * (so a digit in the reason never matches), then average the integer alternatives at that
 * position with p ≥ 0.01, weighted by probability.
 */
export function weightedScore(logprobs: TokenLogprob[] | null, rawScore: number): number | undefined {
  if (!logprobs || logprobs.length === 0) return undefined
  const wanted = String(rawScore)
  for (let i = logprobs.length - 1; i >= 0; i--) {
    if (logprobs[i].token.trim() !== wanted) continue
    let sum = 0
    let weight = 0
    const alternatives = logprobs[i].top_logprobs.length > 0 ? logprobs[i].top_logprobs : [logprobs[i]]
    for (const alt of alternatives) {
      const token = alt.token.trim()
      if (!/^\d+$/.test(token)) continue
      const value = Number(token)
      const p = Math.exp(alt.logprob)
      if (value > 10 || p < 0.01) continue
      sum += value * p
      weight += p
    }
    return weight > 0 ? sum / weight : undefined
  }
  return undefined
}

function isBadRequest(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 400
}
