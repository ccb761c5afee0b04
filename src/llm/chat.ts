import type OpenAI from 'openai'
import { readCompletion, type ChatToolCall, type ReadAnswer } from './answer.js'
import { linkedSignal } from '../util/linked-signal.js'
import { providerFetch } from './bounded-fetch.js'

// The answer's shapes live with its reader; the usage shape and its sums with the results schema, which records them.
export type { ChatToolCall, TokenLogprob } from './answer.js'
export type { TokenUsage } from '../results/primitives.js'
export { addUsage, emptyUsage } from '../results/usage.js'

/**
 * The subset of the OpenAI chat format that the agent and the judge speak. A user message with
 * content parts carries the images tool results returned (src/agent/media.ts): sent as it is.
 */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'user'; content: ChatContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string }

/** One part of a user message's content: text, or an image as a URL (a `data:` URL for a tool result's image). */
export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

export interface ChatTool {
  type: 'function'
  function: { name: string; description?: string; parameters: Record<string, unknown> }
}

export interface ChatRequest {
  model: string
  messages: ChatMessage[]
  tools?: ChatTool[]
  temperature?: number
  logprobs?: boolean
  top_logprobs?: number
  /** Not sent: which repeat this request belongs to, so cached answers stay per attempt. */
  attempt?: number
  /** Not sent: the n-th retry of a request whose answer was unusable, so it is not replayed. */
  retry?: number
}

/** An answer as the agent and the judge use it: what the completion said, and when. */
export interface ChatResponse extends ReadAnswer {
  latency_ms: number
  /** Replayed from the record-and-replay cache (src/llm/cache.ts): nothing was spent on it. */
  cached?: boolean
}

/** Anything that answers chat requests: the OpenAI-compatible HTTP client, or a test double. */
export interface ChatClient {
  complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>
}

export interface ChatClientOptions {
  baseURL: string
  apiKey: string
  /** Retries on 408/409/429/5xx and network errors (exponential backoff, Retry-After honoured). */
  maxRetries?: number
  /** Longest Retry-After we honour, so a provider cannot park a run for an hour. */
  maxRetryAfterMs?: number
  requestTimeoutMs?: number
  headers?: Record<string, string>
}

/** A chat client for any OpenAI-compatible endpoint (OpenRouter, OpenAI, Ollama, vLLM…). */
export function createChatClient(options: ChatClientOptions): ChatClient {
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000
  const askForCost = /(^|\.)openrouter\.ai$/.test(new URL(options.baseURL).hostname)
  // openai is loaded with the first request, not at import: it is not on the way to the first
  // server spawn (a fifth of the modules the action loads before it otherwise).
  let openai: Promise<OpenAI> | undefined
  const settings = {
    baseURL: options.baseURL,
    apiKey: options.apiKey,
    maxRetries: options.maxRetries ?? 4,
    timeout: options.requestTimeoutMs ?? 120_000,
    defaultHeaders: {
      'HTTP-Referer': 'https://github.com/mcp-server-evals/mcp-server-evals',
      'X-Title': 'MCP Server Evals',
      ...options.headers
    },
    fetch: (url: RequestInfo | URL, init?: RequestInit) => providerFetch(url, init).then((response) => capRetryAfter(response, maxRetryAfterMs))
  }
  const client = () => (openai ??= import('openai').then(({ default: OpenAI }) => new OpenAI(settings)))

  return {
    async complete(request, signal) {
      // The client first: the latency is the request's, not the module's loading.
      const openaiClient = await client()
      const started = performance.now()
      // The SDK and fetch each hang a listener on the signal they are given, let go of only when a
      // collection finds their request unreferenced: given the job's or the run's long-lived signal,
      // every call would leave its own there. This call's own signal, released as it ends, takes them.
      const call = signal ? linkedSignal([signal]) : null
      try {
        return await completeOnce(openaiClient, request, call?.signal, started)
      } finally {
        call?.release()
      }
    }
  }

  async function completeOnce(openaiClient: OpenAI, request: ChatRequest, signal: AbortSignal | undefined, started: number): Promise<ChatResponse> {
    const completion = await openaiClient.chat.completions.create(
      {
        model: request.model,
        messages: request.messages,
        ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
        temperature: request.temperature ?? 0,
        ...(request.logprobs ? { logprobs: true, top_logprobs: request.top_logprobs ?? 20 } : {}),
        // OpenRouter reports the cost of each call when asked; other endpoints may reject the key.
        ...(askForCost ? { usage: { include: true } } : {})
      } as OpenAI.ChatCompletionCreateParamsNonStreaming,
      { signal }
    )
    // Read field by field: an answer in a shape the wire format does not allow is this request's error.
    return {
      ...readCompletion(completion),
      latency_ms: Math.round(performance.now() - started)
    }
  }
}

function capRetryAfter(response: Response, maxMs: number): Response {
  const header = response.headers.get('retry-after')
  if (!header) return response
  const seconds = Number(header)
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now()
  if (!(ms > maxMs)) return response
  const headers = new Headers(response.headers)
  headers.set('retry-after', String(Math.floor(maxMs / 1000)))
  headers.delete('retry-after-ms')
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}
