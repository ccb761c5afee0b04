import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { redactDeep } from '../util/redact.js'
import { writeFileReplacing } from '../util/write-file.js'
import { storedAnswerProblem } from './answer.js'
import type { CacheMode, CacheStats } from '../results/primitives.js'
import type { ChatClient, ChatRequest, ChatResponse } from './chat.js'

export type { CacheMode, CacheStats } from '../results/primitives.js'

/**
 * Record and replay: every LLM request (agent turns, judge, semantic matches) is keyed by a hash
 * of the endpoint, model, messages, tools, sampling parameters and the repeat's attempt number
 * (so repeats do not collapse into one answer), and its answer is kept as a file in `dir`.
 * An unchanged suite against an unchanged server then re-runs without calling the model.
 * The files reach the Actions cache, which pull requests can restore: an answer is stored with
 * every secret redacted (and replays so), and an unreadable entry is a miss with one warning.
 */
export function createCachingChatClient(
  inner: ChatClient,
  options: {
    dir: string
    mode: CacheMode
    baseURL: string
    secrets?: readonly string[]
    onWarning?: (message: string) => void
    /** What of a request must not change its key (a run's `${RUN_DIR}`, a fresh path each time), replaced in the request's JSON. */
    normalize?: (json: string) => string
  }
): { client: ChatClient; stats: CacheStats } {
  const stats: CacheStats = { mode: options.mode, hits: 0, misses: 0, saved_tokens: 0, saved_cost_usd: null }
  if (options.mode === 'off') return { client: inner, stats }
  mkdirSync(options.dir, { recursive: true })
  let warned = false
  const unreadable = (file: string, why: string) => {
    if (!warned) options.onWarning?.(`Skipped an unreadable recorded LLM answer (${file}: ${why}); the model is asked instead. Further ones are skipped without a warning.`)
    warned = true
  }
  const client: ChatClient = {
    async complete(request, signal) {
      const file = join(options.dir, `${requestKey(options.baseURL, request, options.normalize)}.json`)
      const stored = readStored(file, unreadable)
      if (stored) {
        stats.hits++
        stats.saved_tokens += stored.usage?.total_tokens ?? 0
        if (stored.usage?.cost_usd !== undefined) stats.saved_cost_usd = Math.round(((stats.saved_cost_usd ?? 0) + stored.usage.cost_usd) * 1e8) / 1e8
        return { ...stored, latency_ms: 0, cached: true }
      }
      stats.misses++
      const response = await inner.complete(request, signal)
      if (options.mode === 'read-write') {
        // Written whole, then renamed, so a concurrent reader never sees half a file (and a link planted at its name is replaced, not followed).
        writeFileReplacing(file, JSON.stringify(redactDeep(response, options.secrets ?? [])))
      }
      return response
    }
  }
  return { client, stats }
}

export function requestKey(baseURL: string, request: ChatRequest, normalize: (json: string) => string = (json) => json): string {
  const { model, messages, tools, temperature, logprobs, top_logprobs, attempt, retry } = request
  const json = JSON.stringify({ baseURL, model, messages, tools: tools ?? null, temperature: temperature ?? 0, logprobs: logprobs ?? false, top_logprobs: top_logprobs ?? null, attempt: attempt ?? 1, retry: retry ?? 0 })
  return createHash('sha256').update(normalize(json)).digest('hex')
}

/**
 * A stored answer; undefined when there is none, or when it is not a whole answer of the right
 * shape (reported): not a regular file, over FileLimits.cacheEntry, not JSON, or a field of the
 * wrong type (a `content` that is a number would reach the judge and the report).
 */
function readStored(file: string, unreadable: (file: string, why: string) => void): ChatResponse | undefined {
  let text: string
  try {
    text = readBoundedFile(file, FileLimits.cacheEntry)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') unreadable(file, (error as Error).message)
    return undefined
  }
  try {
    const value: unknown = JSON.parse(text)
    const problem = storedAnswerProblem(value)
    if (problem) throw new Error(problem)
    return value as ChatResponse
  } catch (error) {
    unreadable(file, (error as Error).message)
    return undefined
  }
}
