import { isObject } from '../util/objects.js'
import { MAX_FRAME_BYTES, MAX_JSON_DEPTH, nestedDeeperThan } from '../util/read-limits.js'
import { formatBytes } from '../util/read-file.js'

/**
 * What every frame from a server passes before anything of ours reads it, over stdio (the
 * transport, src/mcp/stdio-transport.ts) and HTTP (src/mcp/http-screen.ts) alike: a frame nested
 * deeper than MAX_JSON_DEPTH, and an answer with both `result` and `error`, are refused. A refused
 * answer becomes an error answer to the same request, made here and marked so (`rejectionOf`): the
 * call fails at once with the reason, instead of waiting out its timeout for an answer the SDK
 * drops, and nothing too deep ever reaches a record.
 */

/** The key, in a made-up error's `data`, that says the reader refused the server's answer (its value: why). */
const REFUSED_KEY = 'mcp-server-evals/refused'
/** JSON-RPC's parse error: the answer could not be read. */
const REFUSED_CODE = -32700

export type Screened =
  /** A JSON-RPC 2.0 object, fit to hand on. */
  | { kind: 'frame'; frame: Record<string, unknown> }
  /** Not JSON (a banner, a log line), or JSON that is not a JSON-RPC 2.0 object (`json`: a JSON log record). */
  | { kind: 'other'; json: boolean }
  /**
   * A JSON-RPC frame refused: why, the error answer that stands for it (none when it answered no
   * request of ours), and the frame itself when it is safe to look at (not too deep): the raw
   * conformance probes keep it as evidence.
   */
  | { kind: 'refused'; reason: string; answer?: Record<string, unknown>; frame?: Record<string, unknown> }

export const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH} levels`
export const RESULT_AND_ERROR = 'it has both "result" and "error" (JSON-RPC 2.0 §5: a response has exactly one of them)'
export const frameTooLong = (limit = MAX_FRAME_BYTES) => `a message longer than ${formatBytes(limit)}`

/** One frame's text, screened. JSON.parse itself copes with any depth (it does not recurse); what comes after it does. */
export function screenFrame(text: string): Screened {
  const deep = nestedDeeperThan(text)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { kind: 'other', json: false }
  }
  if (!isObject(value) || value.jsonrpc !== '2.0') return { kind: 'other', json: true }
  const answersUs = typeof value.method !== 'string' && (typeof value.id === 'string' || typeof value.id === 'number')
  const refuse = (reason: string) => ({ kind: 'refused' as const, reason, ...(answersUs ? { answer: refusedAnswer(value.id, reason) } : {}) })
  if (deep) return refuse(TOO_DEEP)
  if ('result' in value && 'error' in value) return { ...refuse(RESULT_AND_ERROR), frame: value }
  return { kind: 'frame', frame: value }
}

/** The error answer that stands for a refused answer to request `id`. */
export function refusedAnswer(id: unknown, reason: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code: REFUSED_CODE, message: `the server's answer was not read: ${reason}`, data: { [REFUSED_KEY]: reason } } }
}

/** Why the reader refused the server's answer this frame stands for; undefined for a frame the server sent. */
export function rejectionOf(frame: unknown): string | undefined {
  if (!isObject(frame) || !isObject(frame.error) || !isObject(frame.error.data)) return undefined
  const reason = frame.error.data[REFUSED_KEY]
  return typeof reason === 'string' ? `the server's answer was not read: ${reason}` : undefined
}
