import type { ServerConfig } from '../src/config/types.js'
import { fixturePath } from './harness.js'
import { kindOf, type ChatRequestBody } from './scripted-llm.js'

/** The model-view fixture server over stdio; `settings` are its KEY=VALUE arguments (STATE_FILE is required). */
export function modelViewServer(settings: string[], env: Record<string, string> = {}): ServerConfig {
  return { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/model-view-server.mjs'), ...settings], env }
}

/** One message of a chat request as sent: a user message may carry content parts (text and images). */
export type SentMessage = ChatRequestBody['messages'][number] & { content?: string | null | ContentPart[] }
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

/** The messages of a request, typed as sent (content may be a list of parts). */
export const sentMessages = (request: ChatRequestBody): SentMessage[] => request.messages as SentMessage[]

/** The model marker the contract fixes: what the model is told was cut from a result (or the judge from an answer). */
export function modelMarker(left: number, total: number, limit: number): string {
  const n = (value: number) => value.toLocaleString('en-US')
  return `\n\n[… ${n(left)} of ${n(total)} characters cut here by the evaluation harness (max_tool_result_chars ${n(limit)})]`
}

/** The record marker the contract fixes: what the record says it left out (the count as digits alone). */
export function recordMarker(left: number): string {
  return `\n\n[… ${left.toLocaleString('en-US')} more characters the server sent, not kept in this record]`
}

/** The agent requests one run made (its model, its prompt), in order. */
export function agentRequestsOf(llm: { requests: ChatRequestBody[] }, model: string, prompt: string): ChatRequestBody[] {
  return llm.requests.filter((r) => kindOf(r) === 'agent' && r.model === model && firstUserText(r).includes(prompt))
}

/** The judge's scoring requests for a prompt (the GEval score call carries the input and the answer). */
export function judgeRequestsOf(llm: { requests: ChatRequestBody[] }, prompt: string): ChatRequestBody[] {
  return llm.requests.filter((r) => kindOf(r) === 'score' && (r.messages[0].content ?? '').includes(`\nInput:\n${prompt}`))
}

/** The answer a GEval score request showed the judge. */
export function judgedOutput(request: ChatRequestBody): string {
  const text = request.messages[0].content ?? ''
  const start = text.indexOf('\n\nActual Output:\n') + '\n\nActual Output:\n'.length
  return text.slice(start, text.indexOf('\n\nParameters:', start))
}

/** The function names a request offered the model. */
export const offeredNames = (request: ChatRequestBody): string[] => (request.tools ?? []).map((t) => t.function.name)

function firstUserText(request: ChatRequestBody): string {
  const first = request.messages.find((m) => m.role === 'user' && typeof m.content === 'string')
  return first?.content ?? ''
}
