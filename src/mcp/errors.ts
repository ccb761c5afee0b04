import { SdkErrorCode } from '@modelcontextprotocol/client'
import { isObject } from '../util/objects.js'

/** Raised when the server cannot be started or reached; carries the stderr tail, and what the SDK threw (`cause`). */
export class ServerError extends Error {
  constructor(
    message: string,
    readonly stderrTail: string,
    options?: ErrorOptions
  ) {
    super(message, options)
    this.name = 'ServerError'
  }
}

/** A JSON-RPC error answered by the server: the model should see it, as eval-action does. */
export function isPeerError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ProtocolError' && typeof (error as { code?: unknown }).code === 'number'
}

export function codeOf(thrown: unknown): unknown {
  return isObject(thrown) || thrown instanceof Error ? (thrown as { code?: unknown }).code : undefined
}

/** The SDK's own timeout (a leg, or the total budget of the call, ran out). */
export function isTimeout(thrown: unknown): boolean {
  return codeOf(thrown) === SdkErrorCode.RequestTimeout
}

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as { cause?: unknown }).cause
  const code = (error as { code?: unknown }).code
  let text = error.message
  if (typeof code === 'string' && !text.includes(code)) text = `${code}: ${text}`
  if (cause instanceof Error && !text.includes(cause.message)) text += ` (${cause.message})`
  return text
}
