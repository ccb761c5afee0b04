import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createCachingChatClient, type CacheStats } from './llm/cache.js'
import { evaluateGate } from './aggregate/gate.js'
import { dirname, join } from 'node:path'
import { summarize } from './aggregate/summarize.js'
import type { RunOptions } from './config/options.js'
import { parseServerConfig, serverSecrets } from './config/server-config.js'
import { loadSuiteFile } from './config/suite.js'
import type { ServerConfig, Suite } from './config/types.js'
import { conformancePassed, runConformance } from './conformance/run.js'
import type { ConformanceReport } from './conformance/types.js'
import { resultsConfig, runEvaluation, type EngineDeps, type EngineSettings } from './engine.js'
import { createChatClient, type ChatClient } from './llm/chat.js'
import { createSessionFactory } from './mcp/session.js'
import { localDate } from './plan/expand.js'
import { renderBadge } from './report/badge.js'
import { renderJUnit } from './report/junit.js'
import { anchor, renderMarkdownReport } from './report/markdown.js'
import { RESULTS_VERSION, type ResultsDocument } from './results/types.js'
import { createGEvalJudge } from './scoring/geval.js'
import { createSemanticMatcher } from './scoring/semantic.js'
import { redactDeep } from './util/redact.js'
import { TOOL_NAME, TOOL_VERSION } from './version.js'

/** A validated configuration, ready to run. */
export interface Prepared {
  options: RunOptions
  server: ServerConfig
  suite: Suite
  /** Values that must never be written anywhere. */
  secrets: string[]
}

/** Parse and validate everything before any server starts or any model is called. Throws ConfigError. */
export function prepare(options: RunOptions, env: NodeJS.ProcessEnv): Prepared {
  const server = parseServerConfig(options.serverConfig)
  const suite = loadSuiteFile(options.evalCases, {
    models: options.models,
    judgeModel: options.judgeModel,
    envModels: env.EVAL_MODELS,
    envJudgeModel: env.EVAL_JUDGE_MODEL
  })
  return { options, server, suite, secrets: [...serverSecrets(server), options.apiKey].filter((s) => s.length > 0) }
}

export interface EvaluateHooks {
  onRunFinished?: EngineDeps['onRunFinished']
  onWarning?: (message: string) => void
  onConformance?: (report: ConformanceReport) => void
  /** Replace the HTTP chat client (tests and benchmarks use a scripted server instead). */
  llm?: ChatClient
  llmMaxRetries?: number
}

/**
 * Layer 0 (conformance, free, no LLM) first, then the behaviour runs, unless the options say to
 * skip them; one document holds both, and `passed` is both gates.
 */
export async function evaluate(prepared: Prepared, hooks: EvaluateHooks = {}): Promise<ResultsDocument> {
  const { options, suite, server } = prepared
  const startedAt = new Date()
  const started = performance.now()
  const settings = {
    filter: options.filter,
    maxSteps: options.maxSteps,
    concurrency: options.concurrency,
    timeoutSeconds: options.timeoutSeconds,
    baseUrl: options.baseUrl,
    today: localDate(new Date())
  }
  const report = options.conformance === 'off' ? null : await runConformance(server)
  if (report) hooks.onConformance?.(report)
  let doc: ResultsDocument
  let cacheStats: CacheStats | null = null
  if (options.skipBehaviour !== null) {
    doc = skippedBehaviourDocument(suite, server, settings, options.skipBehaviour)
  } else {
    const base = hooks.llm ?? createChatClient({ baseURL: options.baseUrl, apiKey: options.apiKey || 'none', maxRetries: hooks.llmMaxRetries })
    const { client: llm, stats } = createCachingChatClient(base, { dir: options.cacheDir, mode: options.cache, baseURL: options.baseUrl })
    cacheStats = stats
    doc = await runEvaluation(suite, server, settings, {
      llm,
      judge: createGEvalJudge(llm, suite.judge_model),
      semantic: createSemanticMatcher(llm, suite.judge_model),
      sessions: createSessionFactory(server, { requestTimeoutMs: options.timeoutSeconds * 1000 }),
      onRunFinished: hooks.onRunFinished
    })
  }
  if (cacheStats) doc = { ...doc, summary: { ...doc.summary, cache: cacheStats } }
  const whole = { started_at: startedAt.toISOString(), duration_s: Math.round((performance.now() - started) / 100) / 10 }
  const gate = doc.behaviour.status === 'ran' ? evaluateGate(doc, loadBaseline(options.baseline, hooks.onWarning), options.gate, options.maxDrop) : null
  const conformance = report ? { ...report, fail_on: options.conformanceFailOn, passed: conformancePassed(report, options.conformanceFailOn) } : null
  return { ...doc, ...whole, gate, conformance, passed: (gate?.passed ?? true) && (conformance?.passed ?? true) }
}

/**
 * What the recorded LLM answers belong to: the suite file, the models and judge, and the server
 * command or URL (not its env or headers). The tool list needs no part here: it is in every
 * recorded request, so a changed server never replays an old answer.
 */
export function suiteHash(prepared: Prepared): string {
  const { suite, server, options } = prepared
  const serverId = server.kind === 'stdio' ? [server.command, ...server.args] : [server.url]
  return createHash('sha256')
    .update(JSON.stringify([readFileSync(options.evalCases, 'utf8'), suite.models, suite.judge_model, serverId, options.baseUrl]))
    .digest('hex')
    .slice(0, 16)
}

/** An earlier results document to compare with; a missing or unreadable one is a warning, not an error. */
export function loadBaseline(path: string, warn: (message: string) => void = () => undefined): { document: ResultsDocument; source: string } | null {
  if (!path) return null
  if (path === 'auto') {
    warn('baseline: auto restores the last green results from the Actions cache, which only the action has; gating on the pass floors alone.')
    return null
  }
  try {
    const document = JSON.parse(readFileSync(path, 'utf8')) as ResultsDocument
    if (document.version !== RESULTS_VERSION || !Array.isArray(document.groups)) throw new Error(`not a version ${RESULTS_VERSION} results document with groups`)
    return { document, source: path }
  } catch (error) {
    warn(`No baseline: cannot use ${path} (${(error as Error).message}); gating on the pass floors alone.`)
    return null
  }
}

function skippedBehaviourDocument(suite: Suite, server: ServerConfig, settings: Omit<EngineSettings, 'today'>, reason: string): ResultsDocument {
  return {
    ...emptyDocument(),
    config: resultsConfig(suite, server, settings),
    behaviour: { status: 'skipped', reason },
    passed: true
  }
}

function emptyDocument(startedAt = new Date()): ResultsDocument {
  return {
    version: RESULTS_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    started_at: startedAt.toISOString(),
    duration_s: 0,
    passed: true,
    config: null,
    behaviour: { status: 'ran', reason: null },
    conformance: null,
    summary: summarize([], []),
    gate: null,
    metrics: null,
    groups: [],
    runs: [],
    fatal_error: null
  }
}

/** The document written when the evaluation could not run at all, so outputs always exist. */
export function fatalDocument(message: string, startedAt = new Date()): ResultsDocument {
  return {
    ...emptyDocument(startedAt),
    passed: false,
    behaviour: { status: 'skipped', reason: 'the configuration is invalid' },
    summary: { ...summarize([], []), pass_rate: 0 },
    fatal_error: message
  }
}

export interface OutputPaths {
  resultsPath: string
  reportPath: string
  junitPath?: string
  badgePath?: string
  /** One JSON file per run, with its whole transcript. */
  transcriptsDir?: string
}

/**
 * Write the results document and everything rendered from it (report, JUnit XML, badge,
 * per-run transcripts), with every secret redacted first. Returns the texts and the files.
 */
export function writeResults(doc: ResultsDocument, paths: OutputPaths, secrets: readonly string[]) {
  const safe = redactDeep(doc, secrets)
  const results = `${JSON.stringify(safe, null, 2)}\n`
  const report = renderMarkdownReport(safe)
  const junit = renderJUnit(safe)
  const outputs: [string, string][] = [
    [paths.resultsPath, results],
    [paths.reportPath, report]
  ]
  if (paths.junitPath) outputs.push([paths.junitPath, junit])
  if (paths.badgePath) outputs.push([paths.badgePath, `${JSON.stringify(renderBadge(safe), null, 2)}\n`])
  if (paths.transcriptsDir) {
    for (const run of safe.runs) outputs.push([join(paths.transcriptsDir, `${String(run.index).padStart(3, '0')}-${anchor(run)}.json`), `${JSON.stringify(run, null, 2)}\n`])
  }
  for (const [path, text] of outputs) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text)
  }
  return { document: safe, results, report, junit, files: outputs.map(([path]) => path) }
}
