/** A problem with the user's configuration, located as precisely as we can. */
export class ConfigError extends Error {
  constructor(
    /** The problem alone, without where it is. */
    readonly detail: string,
    readonly where: { file?: string; line?: number; column?: number; path?: string; input?: string } = {}
  ) {
    super(formatLocated(detail, where))
    this.name = 'ConfigError'
  }

  /** The same problem under another name for its input (a CLI flag where the action names an input). */
  withInput(input: string): ConfigError {
    return new ConfigError(this.detail, { ...this.where, input })
  }
}

/** A CLI flag (`--eval-cases`) reads as typed; an action input reads `input 'eval_cases'`. */
export function isFlag(name: string): boolean {
  return name.startsWith('-')
}

function formatLocated(message: string, where: ConfigError['where']): string {
  const parts: string[] = []
  if (where.input) parts.push(isFlag(where.input) ? where.input : `input '${where.input}'`)
  if (where.file) {
    let pos = where.file
    if (where.line !== undefined) pos += `:${where.line}`
    if (where.line !== undefined && where.column !== undefined) pos += `:${where.column}`
    parts.push(pos)
  }
  if (where.path) parts.push(`at ${where.path}`)
  return parts.length ? `${parts.join(' ')}: ${message}` : message
}

/** Several configuration problems reported at once, so a user fixes them in one round. */
export class ConfigErrors extends ConfigError {
  constructor(readonly errors: ConfigError[]) {
    super(errors.map((e) => e.message).join('\n'))
    this.name = 'ConfigErrors'
  }

  override withInput(input: string): ConfigErrors {
    return new ConfigErrors(this.errors.map((e) => (e.where.input ? e.withInput(input) : e)))
  }
}

/**
 * Run `parse`, and where it blames the input `from` (a parser that knows only the action's input
 * name), blame `to` instead: the CLI names the flag the user typed.
 */
export function renamingInput<T>(from: string, to: string, parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    if (from === to || !(error instanceof ConfigError)) throw error
    if (error instanceof ConfigErrors ? error.errors.some((e) => e.where.input === from) : error.where.input === from) throw error.withInput(to)
    throw error
  }
}
