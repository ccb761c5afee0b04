/** A problem with the user's configuration, located as precisely as we can. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly where: { file?: string; line?: number; column?: number; path?: string; input?: string } = {}
  ) {
    super(formatLocated(message, where))
    this.name = 'ConfigError'
  }
}

function formatLocated(message: string, where: ConfigError['where']): string {
  const parts: string[] = []
  if (where.input) parts.push(`input '${where.input}'`)
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
}
