import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * An OpenAI-compatible chat completions server on 127.0.0.1 whose answers a test scripts.
 * The real `openai` client talks to it over HTTP, so retries, headers and parsing are real.
 */

export interface ChatRequestBody {
  model: string
  messages: { role: string; content?: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[]
  tools?: { type: string; function: { name: string; description?: string; parameters: Record<string, unknown> } }[]
  temperature?: number
  logprobs?: boolean
  top_logprobs?: number
}

export interface Reply {
  status?: number
  headers?: Record<string, string>
  /** A full JSON body (use the helpers below), or raw text for broken replies. */
  body: unknown
  /** Extra latency for this reply. */
  delayMs?: number
}

export type Responder = (request: ChatRequestBody, index: number) => Reply | Promise<Reply>

export interface ScriptedLlm {
  url: string
  requests: ChatRequestBody[]
  close(): Promise<void>
}

export async function startScriptedLlm(responder: Responder, options: { delayMs?: number; port?: number } = {}): Promise<ScriptedLlm> {
  const requests: ChatRequestBody[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}')
        return
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody
      const index = requests.push(body) - 1
      try {
        const reply = await responder(body, index)
        const delay = (options.delayMs ?? 0) + (reply.delayMs ?? 0)
        // A client that gave up (aborted, cancelled) ends the wait: no timer outlives the test.
        if (delay > 0) await new Promise<void>((r) => {
          const timer = setTimeout(r, delay)
          res.once('close', () => (clearTimeout(timer), r()))
        })
        if (res.destroyed) return
        const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers }).end(text)
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: String(error) } }))
      }
    })
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** OpenRouter-style usage, with the cost of the call. */
const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, cost: 0.00015 }

function completion(model: string, message: Record<string, unknown>, finish: string, logprobs?: unknown): Reply {
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 0,
      model,
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish, logprobs: logprobs ?? null }],
      usage
    }
  }
}

let callCounter = 0

/** The model asks for these tool calls (one turn, possibly parallel). */
export function toolCalls(model: string, calls: { name: string; args: unknown }[]): Reply {
  return completion(
    model,
    {
      content: null,
      tool_calls: calls.map((c) => ({
        id: `call_${++callCounter}`,
        type: 'function',
        function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) }
      }))
    },
    'tool_calls'
  )
}

/** The model answers in text. */
export function answer(model: string, content: string): Reply {
  return completion(model, { content }, 'stop')
}

/** GEval evaluation steps. */
export function steps(model: string, list = ['Check the answer addresses the input.', 'Check facts against the criteria.', 'Penalise missing details.']): Reply {
  return answer(model, JSON.stringify({ steps: list }))
}

/**
 * A GEval verdict; with `alternatives` ({score: probability}) it carries top_logprobs on the
 * score token, and a digit inside the reason that must not be mistaken for the score.
 */
export function verdict(model: string, score: number, reason: string, alternatives?: Record<number, number>): Reply {
  const content = `{"reason": "${reason}", "score": ${score}}`
  if (!alternatives) return answer(model, content)
  const token = (t: string) => ({ token: t, logprob: -0.01, bytes: null, top_logprobs: [{ token: t, logprob: -0.01, bytes: null }] })
  const scoreToken = {
    token: String(score),
    logprob: Math.log(alternatives[score] ?? 0.5),
    bytes: null,
    top_logprobs: Object.entries(alternatives).map(([t, p]) => ({ token: t, logprob: Math.log(p), bytes: null }))
  }
  return completion(model, { content }, 'stop', {
    content: [token('{"'), token('reason'), token('": "'), token(reason), token(String(score)), token('", "'), token('score'), token('": '), scoreToken, token('}')]
  })
}

/** A message's text: its content, or the text of its parts (a message with an image). */
export function textOf(content: unknown): string {
  // Typed as text, a user message with an image is a list of parts on the wire.
  if (Array.isArray(content)) return (content as { text?: string }[]).map((part) => part.text ?? '').join('')
  return typeof content === 'string' ? content : ''
}

/** The image URLs of a request's messages, in order (a vision judge's screenshot, a tool result's image). */
export function imagesOf(request: ChatRequestBody): string[] {
  return request.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as unknown as { type: string; image_url?: { url: string } }[]).flatMap((p) => (p.type === 'image_url' && p.image_url ? [p.image_url.url] : [])) : []))
}

/** Which of the three kinds of request this is. */
export function kindOf(request: ChatRequestBody): 'steps' | 'score' | 'semantic' | 'agent' {
  const first = textOf(request.messages[0]?.content)
  if (first.includes('generate 3-4 concise evaluation steps')) return 'steps'
  if (first.startsWith('You are an evaluator')) return 'score'
  if (first.startsWith('Two values were given for the same argument')) return 'semantic'
  return 'agent'
}

/** The user prompt of an agent request. */
export function userPrompt(request: ChatRequestBody): string {
  return request.messages.find((m) => m.role === 'user')?.content ?? ''
}

/** How many tool results the agent has already seen in this run. */
export function toolResults(request: ChatRequestBody): string[] {
  return request.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '')
}

/** A whole agent's behaviour per user prompt: the tool turns it takes, then its answer. */
export interface AgentScript {
  turns: { name: string; args: unknown }[][]
  answer: string | ((results: string[]) => string)
}

/**
 * A responder that plays agent scripts keyed by a substring of the (latest) user message, generates GEval
 * steps, and scores answers with `score(answer, input)`.
 */
export function scriptedBrain(scripts: Record<string, AgentScript>, score: (answer: string, input: string) => number, options: { logprobs?: boolean } = {}): Responder {
  return (request) => {
    const kind = kindOf(request)
    if (kind === 'steps') return steps(request.model)
    // Semantic argument matches: "yes" when one value contains the other, or both name New York.
    if (kind === 'semantic') {
      const [expected, actual] = (request.messages[0].content ?? '')
        .split('\n')
        .slice(1, 3)
        .map((l) => String(JSON.parse(l.replace(/^\w+: /, ''))).toLowerCase())
      const same = expected.includes(actual) || actual.includes(expected) || [expected, actual].every((v) => /nyc|new york/.test(v))
      return answer(request.model, same ? 'yes' : 'no')
    }
    if (kind === 'score') {
      const text = textOf(request.messages[0].content)
      const input = between(text, '\nInput:\n', '\n\nActual Output:\n')
      const output = between(text, '\n\nActual Output:\n', '\n\nParameters:')
      const s = score(output, input)
      return verdict(request.model, s, `scored ${s} for the answer`, options.logprobs ? { [s]: 0.7, [Math.max(0, s - 1)]: 0.3 } : undefined)
    }
    // In a conversation the latest user message picks the script, and only what came after it counts
    // (not the message of images after a step's tool results: its content is a list of parts).
    const latest = request.messages.map((m) => (typeof m.content === 'string' ? m.role : '')).lastIndexOf('user')
    const prompt = request.messages[latest]?.content ?? ''
    const key = Object.keys(scripts).find((k) => prompt.includes(k))
    if (!key) return answer(request.model, 'I cannot help with that.')
    const script = scripts[key]
    const since = { ...request, messages: request.messages.slice(latest + 1) }
    const turnsTaken = since.messages.filter((m) => m.role === 'assistant').length
    if (turnsTaken < script.turns.length) return toolCalls(request.model, script.turns[turnsTaken])
    return answer(request.model, typeof script.answer === 'function' ? script.answer(toolResults(since)) : script.answer)
  }
}

function between(text: string, start: string, end: string): string {
  const a = text.indexOf(start)
  if (a < 0) return ''
  const b = text.indexOf(end, a + start.length)
  return text.slice(a + start.length, b < 0 ? undefined : b)
}

/**
 * A model that asks for one call of `tool`, then takes `hangMs` to answer (the evaluation steps
 * and the judge answer at once): every run holds its server, waiting for the model, when a
 * cancel comes.
 */
export function callsThenHangs(tool: string, hangMs = 60_000): Responder {
  return (request) => {
    const kind = kindOf(request)
    if (kind === 'steps') return steps(request.model)
    if (kind === 'score') return verdict(request.model, 9, 'good')
    if (toolResults(request).length === 0) return toolCalls(request.model, [{ name: tool, args: {} }])
    return { ...answer(request.model, 'late'), delayMs: hangMs }
  }
}
