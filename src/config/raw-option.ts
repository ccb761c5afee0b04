import { ConfigError } from './errors.js'

/**
 * Raw text values keyed by option, with the name the user typed them under (for errors): an
 * action input (`eval_cases`) or a CLI flag (`--eval-cases`, which errors print as it is).
 */
export type RawOption = {
  value: string | undefined
  name: string
  /** Environment variables that can give the value instead (the CLI's API key). */
  env?: string[]
}

export function parseInteger(o: RawOption, fallback: number, min: number, max: number): number {
  const text = (o.value ?? '').trim()
  if (text === '') return fallback
  if (!/^\d+$/.test(text)) throw new ConfigError(`must be a whole number, got '${text}'`, { input: o.name })
  const n = Number(text)
  if (n < min || n > max) throw new ConfigError(`must be between ${min} and ${max}, got ${n}`, { input: o.name })
  return n
}

/** A whole number from `min` to `max`, or null when the value is empty (not given). */
export function parseOptionalInteger(o: RawOption, min: number, max: number): number | null {
  return (o.value ?? '').trim() === '' ? null : parseInteger(o, min, min, max)
}

/** A number from 0 to 1. */
export function parseFraction(o: RawOption | undefined, fallback: number): number {
  const text = (o?.value ?? '').trim()
  if (text === '') return fallback
  const n = Number(text)
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new ConfigError(`must be a number from 0 to 1, got '${text}'`, { input: o?.name })
  return n
}

export function parseChoice<T extends string>(o: RawOption | undefined, choices: readonly T[], fallback: T): T {
  const text = (o?.value ?? '').trim()
  if (text === '') return fallback
  if ((choices as readonly string[]).includes(text)) return text as T
  throw new ConfigError(`must be one of ${choices.join(', ')}, got '${text}'`, { input: o?.name })
}

/** YAML 1.2 booleans, as GitHub's getBooleanInput accepts, with a default for empty. */
export function parseBoolean(o: RawOption, fallback: boolean): boolean {
  const text = (o.value ?? '').trim()
  if (text === '') return fallback
  if (['true', 'True', 'TRUE'].includes(text)) return true
  if (['false', 'False', 'FALSE'].includes(text)) return false
  throw new ConfigError(`must be true or false, got '${text}'`, { input: o.name })
}
