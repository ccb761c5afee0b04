import { Defaults } from '../constants.js'
import { ConfigError } from './errors.js'

/** Everything a run needs to know, from action inputs or CLI flags, validated once. */
export interface RunOptions {
  serverConfig: string
  evalCases: string
  apiKey: string
  filter: string
  maxSteps: number
  concurrency: number
  baseUrl: string
  judgeModel: string
  models: string
  timeoutSeconds: number
  resultsPath: string
  reportPath: string
}

/** Raw text values keyed by option, with the name the user typed them under (for errors). */
export type RawOption = { value: string | undefined; name: string }

export interface RawOptions {
  serverConfig: RawOption
  evalCases: RawOption
  apiKey: RawOption
  filter: RawOption
  maxSteps: RawOption
  parallel: RawOption
  concurrency: RawOption
  baseUrl: RawOption
  judgeModel: RawOption
  models: RawOption
  timeoutSeconds: RawOption
  resultsPath?: RawOption
  reportPath?: RawOption
}

export function resolveOptions(raw: RawOptions): RunOptions {
  const required = (o: RawOption) => {
    const v = (o.value ?? '').trim()
    if (v === '') throw new ConfigError('is required', { input: o.name })
    return v
  }
  const baseUrl = (raw.baseUrl.value ?? '').trim() || Defaults.BaseUrl
  try {
    const url = new URL(baseUrl)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)')
  } catch {
    throw new ConfigError(`must be an http(s) URL, got '${baseUrl}'`, { input: raw.baseUrl.name })
  }
  const apiKey = (raw.apiKey.value ?? '').trim()
  if (apiKey === '' && isOpenRouter(baseUrl)) throw new ConfigError('is required', { input: raw.apiKey.name })
  const parallel = parseBoolean(raw.parallel, true)
  return {
    serverConfig: required(raw.serverConfig),
    evalCases: required(raw.evalCases),
    apiKey,
    filter: raw.filter.value ?? '',
    maxSteps: parseInteger(raw.maxSteps, Defaults.MaxSteps, 1, 1000),
    // "parallel: false" really runs one at a time (eval-action ignored it).
    concurrency: parallel ? parseInteger(raw.concurrency, Defaults.Concurrency, 1, 256) : 1,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    judgeModel: (raw.judgeModel.value ?? '').trim(),
    models: (raw.models.value ?? '').trim(),
    timeoutSeconds: parseInteger(raw.timeoutSeconds, Defaults.TimeoutSeconds, 1, 86_400),
    resultsPath: raw.resultsPath?.value?.trim() || Defaults.ResultsPath,
    reportPath: raw.reportPath?.value?.trim() || Defaults.ReportPath
  }
}

export function isOpenRouter(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.endsWith('openrouter.ai')
  } catch {
    return false
  }
}

export function parseInteger(o: RawOption, fallback: number, min: number, max: number): number {
  const text = (o.value ?? '').trim()
  if (text === '') return fallback
  if (!/^\d+$/.test(text)) throw new ConfigError(`must be a whole number, got '${text}'`, { input: o.name })
  const n = Number(text)
  if (n < min || n > max) throw new ConfigError(`must be between ${min} and ${max}, got ${n}`, { input: o.name })
  return n
}

/** YAML 1.2 booleans, as GitHub's getBooleanInput accepts, with a default for empty. */
export function parseBoolean(o: RawOption, fallback: boolean): boolean {
  const text = (o.value ?? '').trim()
  if (text === '') return fallback
  if (['true', 'True', 'TRUE'].includes(text)) return true
  if (['false', 'False', 'FALSE'].includes(text)) return false
  throw new ConfigError(`must be true or false, got '${text}'`, { input: o.name })
}
