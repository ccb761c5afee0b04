import { nearest } from '../util/suggest.js'

/** parseArgs' message, first sentence only, with a "did you mean" among `known` for a mistyped long flag. */
export function describeFlagError(error: Error, known: readonly string[]): string {
  const message = error.message.split('. To specify a')[0]
  const unknown = /^Unknown option '--([^'=]+)/.exec(message)
  if (!unknown) return message
  const suggestion = nearest(unknown[1].replace(/_/g, '-'), known)
  return suggestion ? `${message}; did you mean --${suggestion}?` : message
}
