import { createHash } from 'node:crypto'
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { applyGate } from './execute/baseline.js'
import { summarize } from './aggregate/summarize.js'
import { mergeBudgets } from './config/budgets.js'
import { ConfigError, ConfigErrors, renamingInput } from './config/errors.js'
import { checkRootsAnswerable } from './config/inputs.js'
import type { RunOptions } from './config/options.js'
import { resolveOtlp, type OtlpTarget } from './config/otlp.js'
import { parseServerConfig, serverSecrets, serverTemplate } from './config/server-config.js'
import { loadSuiteFile } from './config/suite.js'
import type { ServerConfig, Suite } from './config/types.js'
import { conformancePassed, startConformance } from './conformance/run.js'
import type { ConformanceReport } from './conformance/types.js'
import { cancelledSummary, executeRuns, resultsConfig, type EngineDeps } from './engine.js'
import { documentFromJournal, JOURNAL_VERSION, JournalWriter, readJournal, reusableRuns, type JournalHeader, type ToolTestsPlan } from './execute/journal.js'
import { createCachingChatClient, type CacheStats } from './llm/cache.js'
import { createChatClient, emptyUsage, type ChatClient } from './llm/chat.js'
import { createSessionFactory, priorOf, type SessionFactory } from './mcp/session.js'
import { mentionsRunDir, usesRunDir } from './config/run-dir.js'
import { checkServerReuse } from './config/server-reuse.js'
import { withServerReuse } from './mcp/session-reuse.js'
import { runDirsBase, withoutRunDirs } from './execute/run-dirs.js'
import { createSpendMeter, meteredClient, spentBy } from './telemetry/spend.js'
import { createTracing } from './telemetry/tracing.js'
import { expandMatrix, localDate, runKey, selectCases, selectToolTests, specKey, type RunSpec } from './plan/expand.js'
import { planGroups, shardOf, shareOfBudget } from './plan/shard.js'
import { renderBadge } from './report/badge.js'
import { renderJUnit } from './report/junit.js'
import { renderSarif } from './report/sarif.js'
import { renderMarkdownReport } from './report/markdown.js'
import { anchor } from './report/runs.js'
import { RESULTS_VERSION, type BehaviourStatus, type Cancellation, type ResultsDocument, type RunResult, type ToolTestResult } from './results/types.js'
import { runToolTests } from './tooltests/run.js'
import { fileSnapshotStore } from './tooltests/snapshot.js'
import { createGEvalJudge } from './scoring/geval.js'
import { createSemanticMatcher } from './scoring/semantic.js'
import { redactDeep, redactText } from './util/redact.js'
import { count } from './util/words.js'
import { TOOL_NAME, TOOL_VERSION } from './version.js'

/** A validated configuration, ready to run. */
export interface Prepared {
  options: RunOptions
  server: ServerConfig
  suite: Suite
  /** Values that must never be written anywhere. */
  secrets: string[]
  /** Under CI=true a missing snapshot fails its tool test instead of being written. */
  ci: boolean
  /** Where spans go (OTLP/HTTP): the traces URL and its headers; null: no export (runs still get trace ids). */
  otlp: OtlpTarget | null
}

/** Parse and validate everything before any server starts or any model is called. Throws ConfigError. */
export function prepare(options: RunOptions, env: NodeJS.ProcessEnv): Prepared {
  // Errors name what the user typed: the action's inputs, or the CLI's flags.
  const names = options.names ?? { serverConfig: 'server_config', evalCases: 'eval_cases', filter: 'filter', models: 'models', otlpEndpoint: 'otlp_endpoint', otlpHeaders: 'otlp_headers' }
  const server = parseServerConfig(options.serverConfig, { env, input: names.serverConfig })
  const fromYaml = renamingInput('eval_cases', names.evalCases, () =>
    loadSuiteFile(options.evalCases, {
      models: options.models,
      judgeModel: options.judgeModel,
      envModels: env.EVAL_MODELS,
      envJudgeModel: env.EVAL_JUDGE_MODEL,
      transport: server.kind,
      timeoutSeconds: options.timeoutSeconds,
      maxToolResultChars: options.maxToolResultChars
    })
  )
  // The YAML's budgets win per key; the inputs (or flags) fill the rest.
  const suite: Suite = { ...fromYaml, budgets: mergeBudgets(fromYaml.budgets, options.budgets) }
  // A case may expect roots that only server_config declares: checked once both are known.
  const unanswerable = checkRootsAnswerable(suite, server.roots)
  if (unanswerable.length > 0) throw new ConfigErrors(unanswerable)
  checkPlan(suite, options, names)
  checkRunDirsBase(server, suite, names.serverConfig)
  checkServerReuse(options.serverReuse, server, names.serverConfig)
  const otlp = resolveOtlp(
    { endpoint: options.otlpEndpoint, headers: options.otlpHeaders, names: { endpoint: names.otlpEndpoint, headers: names.otlpHeaders } },
    env
  )
  const secrets = [...serverSecrets(server), options.apiKey, ...otlp.secrets].filter((s) => s.length > 0)
  return { options, server, suite, secrets, ci: env.CI === 'true', otlp: otlp.target }
}

/**
 * Where `${RUN_DIR}` is used, the directory the run directories go in must be writable: found
 * now, as a configuration error, rather than as every run's error (or a crash of the probes).
 */
function checkRunDirsBase(server: ServerConfig, suite: Suite, input: string): void {
  if (!usesRunDir(server) && !suite.cases.some((c) => (c.inputs?.roots ?? []).some(mentionsRunDir))) return
  const base = runDirsBase()
  try {
    mkdirSync(base, { recursive: true })
    accessSync(base, constants.W_OK)
  } catch (error) {
    throw new ConfigError(`\${RUN_DIR} needs a writable directory to make the run directories in, and ${base} is not one (${(error as Error).message}); point RUNNER_TEMP (or TMPDIR) at a writable directory`, { input })
  }
}

/**
 * An evaluation that would run nothing is an error, not a green check: a filter that selects no
 * case and no tool test, a suite with neither, or no model to run the cases with
 * (`EVAL_MODELS=","`). Conformance alone is asked for with `conformance: only`.
 */
function checkPlan(suite: Suite, options: RunOptions, names: { filter: string; models: string }): void {
  const toolTests = options.toolTests === 'off' ? [] : suite.tool_tests
  const behaviour = options.skipBehaviour === null
  if (options.toolTests === 'only' && toolTests.length === 0) {
    throw new ConfigError('has no tool_tests, but only tool tests were asked for: nothing would be evaluated', { file: options.evalCases, path: 'tool_tests' })
  }
  // Without a key (a fork's pull request) and without tool tests, conformance alone runs, as asked.
  if (!behaviour && toolTests.length === 0 && options.missingKey) throw options.missingKey
  if (options.conformance === 'only' || (!behaviour && toolTests.length === 0)) return
  if (options.filter !== '' && (!behaviour || selectCases(suite, options.filter).length === 0) && selectToolTests({ ...suite, tool_tests: toolTests }, options.filter).length === 0) {
    const ids = [...(behaviour ? suite.cases.map((c) => c.id) : []), ...toolTests.map((t) => t.id)]
    const shown = ids.slice(0, 30).join(', ') + (ids.length > 30 ? `, … (${ids.length} in all)` : '')
    const what = behaviour && toolTests.length ? 'no case id and no tool test id' : toolTests.length ? 'no tool test id' : 'no case id'
    throw new ConfigError(`'${options.filter}' matches ${what} (case-sensitive substring); the ids are: ${shown || '(none)'}`, { input: names.filter })
  }
  if (suite.cases.length === 0 && toolTests.length === 0) {
    throw new ConfigError('has no cases and no tool tests: nothing would be evaluated; to run only the protocol checks, set conformance to only', { file: options.evalCases, path: 'cases' })
  }
  if (!behaviour || suite.cases.length === 0) return
  if (suite.models.length === 0) {
    throw new ConfigError(
      `no model to evaluate: ${names.models.startsWith('-') ? names.models : `the ${names.models} input`}, EVAL_MODELS and the YAML's models give an empty list (EVAL_MODELS="," means none); to run only the protocol checks, set conformance to only`,
      { file: options.evalCases }
    )
  }
}

/** Whether the behaviour runs happen, and why not: the options, or a suite of tool tests alone. */
function behaviourStatus(suite: Suite, options: RunOptions): BehaviourStatus {
  if (options.skipBehaviour !== null) return { status: 'skipped', reason: options.skipBehaviour }
  if (suite.cases.length === 0) return { status: 'skipped', reason: 'the suite has no cases, only tool tests' }
  if (options.filter !== '' && selectCases(suite, options.filter).length === 0) return { status: 'skipped', reason: `the filter '${options.filter}' selects no case` }
  return { status: 'ran', reason: null }
}

/** The tool tests this evaluation runs; null when the suite has none. */
function toolTestsPlan(prepared: Prepared): ToolTestsPlan | null {
  const { suite, options } = prepared
  if (suite.tool_tests.length === 0) return null
  const snapshot_dir = shownPath(snapshotDir(options))
  if (options.toolTests === 'off') return { status: 'skipped', reason: options.conformance === 'only' ? 'conformance is "only"' : 'tool tests are off', snapshot_dir, ids: [] }
  const selected = selectToolTests(suite, options.filter)
  if (selected.length === 0) return { status: 'skipped', reason: `the filter '${options.filter}' selects no tool test`, snapshot_dir, ids: [] }
  return { status: 'ran', reason: null, snapshot_dir, ids: selected.map((t) => t.id) }
}

/** A path as a reviewer knows it: relative to the working directory when it is inside it (no runner paths in a comment). */
function shownPath(path: string): string {
  const inside = relative(process.cwd(), path)
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path
}

/** The snapshot directory: as given, else `__snapshots__` beside the eval cases file. */
export function snapshotDir(options: RunOptions): string {
  return options.snapshotDir || join(dirname(options.evalCases), '__snapshots__')
}

export interface EvaluateHooks {
  onRunStarted?: EngineDeps['onRunStarted']
  onRunFinished?: EngineDeps['onRunFinished']
  onWarning?: (message: string) => void
  onConformance?: (report: ConformanceReport) => void
  /** Called as each tool test is done (all its attempts), in completion order. */
  onToolTestFinished?: (test: ToolTestResult, finished: number, total: number) => void
  /** Aborted with a CancelledError when the job is cancelled (SIGINT, SIGTERM, SIGHUP). */
  cancel?: AbortSignal
  /** Replace the HTTP chat client (tests and benchmarks use a scripted server instead). */
  llm?: ChatClient
  llmMaxRetries?: number
}

/**
 * Layer 0 (conformance, free, no LLM) alongside the behaviour runs, unless the options say to
 * skip them: the runs start once the probe has reached the server and learned its era, and the
 * evaluation ends when both are done. One document holds both, and `passed` is both gates.
 * Everything goes through the run journal first, and the document is built from what the
 * journal holds.
 */
export async function evaluate(prepared: Prepared, hooks: EvaluateHooks = {}): Promise<ResultsDocument> {
  const { options, suite, server } = prepared
  const warn = hooks.onWarning ?? (() => undefined)
  const started = performance.now()
  const settings = {
    filter: options.filter,
    maxSteps: options.maxSteps,
    concurrency: options.concurrency,
    timeoutSeconds: options.timeoutSeconds,
    baseUrl: options.baseUrl,
    today: localDate(new Date()),
    serverRoots: server.roots ?? null,
    runDirs: { base: runDirsBase(), serverUses: usesRunDir(server), keepFailed: options.keepRunDirs, ...(server.kind === 'stdio' && server.cwd !== undefined ? { cwd: server.cwd } : {}) },
    shard: options.shard,
    serverReuse: options.serverReuse
  }
  const behaviour = behaviourStatus(suite, options)
  const whole = behaviour.status === 'ran' ? expandMatrix(suite, settings) : []
  const plan = shardOf(whole, options.shard)
  // The free layers (conformance, tool tests) run once, in shard 1.
  const freeLayers = !options.shard || options.shard.index === 1
  const toolTests = freeLayers ? toolTestsPlan(prepared) : null
  const header: JournalHeader = {
    type: 'header',
    version: JOURNAL_VERSION,
    suite_hash: journalHash(prepared),
    started_at: new Date().toISOString(),
    planned: plan.length,
    reused: 0,
    config: resultsConfig(suite, server, settings),
    cases: suite.cases,
    behaviour,
    gate: { mode: options.gate, max_drop: options.maxDrop, baseline: options.baseline },
    tool_tests: toolTests,
    ...(options.shard ? { shard: { ...options.shard, planned_total: whole.length, groups_total: planGroups(whole).length, groups: planGroups(plan).length } } : {})
  }
  const reused = options.resume && behaviour.status === 'ran' ? inPlan(resumableRuns(options.journalPath, header.suite_hash, warn), plan) : []
  const journal = openJournal(options.journalPath, header, reused, prepared.secrets, warn)
  // A trace per run, exported when an OTLP endpoint is set; a failed export is one warning, never a failed evaluation.
  const tracing = createTracing({ otlp: prepared.otlp, onWarning: warn, serviceVersion: TOOL_VERSION })
  try {
    // Conformance starts first, and the runs as soon as its first step has reached the server and
    // learned its era (they use processes of their own); the other probes go on meanwhile.
    const conformance = options.conformance !== 'off' && freeLayers && !hooks.cancel?.aborted ? startConformance(server, { signal: hooks.cancel, probes: options.conformanceProbes }) : null
    // Written when the probe is done, whenever that is (the document is built from the journal); awaited at the end.
    const conformanceDone = conformance ? recordConformance(conformance.report, journal, options, hooks, warn) : Promise.resolve()
    // A failure of the probe before its first step is the era's too: thrown from there, not left unhandled here.
    conformanceDone.catch(() => undefined)
    const era = conformance ? await untilCancelled(conformance.era, hooks.cancel) : null
    // A remote server gets the probes to itself first: their per-request timeouts would otherwise
    // compete with `concurrency` runs on the same server (and a flaky check is a false failure).
    if (conformance && server.kind === 'http') await conformanceDone
    // Said once, here: not once per run as twenty "connection closed" errors.
    const unreachable = era?.era === 'unreachable' ? `the server could not be started or reached: ${era.reason}` : null
    if (unreachable && behaviour.status === 'ran') journal.append({ type: 'skipped', layer: 'behaviour', reason: unreachable })
    if (unreachable && toolTests?.status === 'ran') journal.append({ type: 'skipped', layer: 'tool_tests', reason: unreachable })
    // Every session opens with the probe's era verdict: none probes, none waits for another.
    const prior = era && era.era !== 'unreachable' ? priorOf(era) : undefined
    const sessions = createSessionFactory(server, { requestTimeoutMs: options.timeoutSeconds * 1000, prior })
    const toolTestsDone = toolTests?.status === 'ran' && !unreachable ? runSuiteToolTests(prepared, toolTests.ids, sessions, journal, hooks) : Promise.resolve()
    let cache: CacheStats | null = null
    let overhead = emptyUsage()
    let cancelled: Cancellation | null = cancelledSummary(hooks.cancel, { planned: header.planned, runs: [] })
    if (behaviour.status === 'ran' && !unreachable) {
      const base = hooks.llm ?? createChatClient({ baseURL: options.baseUrl, apiKey: options.apiKey || 'none', maxRetries: hooks.llmMaxRetries })
      const runDirsRoot = runDirsBase()
      const caching = createCachingChatClient(base, {
        dir: options.cacheDir,
        mode: options.cache,
        baseURL: options.baseUrl,
        secrets: prepared.secrets,
        onWarning: warn,
        normalize: (json) => withoutRunDirs(json, runDirsRoot)
      })
      cache = caching.stats
      // max_cost_usd while running: every answer (agent, judge, semantic match) counts; a replayed one spends nothing.
      // A resumed attempt starts from what the runs it reuses spent: the document's check counts them too.
      // A shard stops at its share of max_cost_usd (by planned runs); the merged document checks the whole suite's spend against all of it.
      const budget = shareOfBudget(suite.budgets.max_cost_usd, plan.length, whole.length, options.shard)
      const spend = createSpendMeter(suite.pricing, budget, spentBy(reused, suite.pricing, suite.judge_model))
      const llm = meteredClient(caching.client, spend)
      const executed = await withServerReuse(sessions, { reuse: options.serverReuse, size: options.concurrency, cancel: hooks.cancel }, (runSessions) => executeRuns(plan, suite, settings, {
        llm,
        judge: createGEvalJudge(llm, suite.judge_model),
        semantic: createSemanticMatcher(llm, suite.judge_model, hooks.cancel),
        budget: spend,
        sessions: runSessions,
        onRunStarted: hooks.onRunStarted,
        onRunFinished: hooks.onRunFinished,
        record: (run) => journal.append({ type: 'run', run }),
        cancel: hooks.cancel,
        reuse: new Map(reused.map((r) => [runKey(r), r])),
        redact: (text) => redactText(text, prepared.secrets),
        tracing
      }))
      overhead = executed.overhead
      cancelled = cancelledSummary(hooks.cancel, executed)
    }
    await toolTestsDone
    await conformanceDone
    cancelled ??= cancelledSummary(hooks.cancel, { planned: header.planned, runs: [] })
    journal.append({ type: 'end', duration_s: Math.round((performance.now() - started) / 100) / 10, overhead, cache, cancelled })
  } finally {
    journal.close()
    // Cancelled runs' spans too: everything is sent (or given up on, within a few seconds) before the document is.
    await tracing.shutdown()
  }
  return applyGate(documentFromJournal(journal.state), header.gate, warn)
}

/** The conformance section, appended to the journal once the probe is done; nothing when the evaluation is cancelled first. */
async function recordConformance(pending: Promise<ConformanceReport>, journal: JournalWriter, options: RunOptions, hooks: EvaluateHooks, warn: (message: string) => void): Promise<void> {
  let report: ConformanceReport | null
  try {
    report = await untilCancelled(pending, hooks.cancel)
  } catch (error) {
    // The runs have run (and spent) meanwhile: a probe that broke after reaching the server costs its section, not the evaluation.
    warn(`Conformance: the probes failed after reaching the server (${(error as Error).message}); the document has no conformance section.`)
    return
  }
  if (!report) return
  hooks.onConformance?.(report)
  journal.append({ type: 'conformance', section: { ...report, fail_on: options.conformanceFailOn, passed: conformancePassed(report, options.conformanceFailOn) } })
}

/** The selected tool tests, each finished test appended to the journal as it is done. */
async function runSuiteToolTests(prepared: Prepared, ids: string[], sessions: SessionFactory, journal: JournalWriter, hooks: EvaluateHooks): Promise<void> {
  const { options, suite } = prepared
  const selected = new Set(ids)
  await runToolTests(
    suite.tool_tests.filter((t) => selected.has(t.id)),
    {
      timeoutSeconds: options.timeoutSeconds,
      concurrency: options.concurrency,
      snapshots: fileSnapshotStore(snapshotDir(options), { ci: prepared.ci, update: options.updateSnapshots }),
      secrets: prepared.secrets
    },
    {
      sessions,
      cancel: hooks.cancel,
      onTestFinished: (test, finished, total) => {
        journal.append({ type: 'tool_test', test })
        hooks.onToolTestFinished?.(test, finished, total)
      }
    }
  )
}

/** Resolves with the promise's value, or with null as soon as the evaluation is cancelled. */
function untilCancelled<T>(promise: Promise<T>, cancel: AbortSignal | undefined): Promise<T | null> {
  if (!cancel) return promise
  return new Promise<T | null>((resolve, reject) => {
    const onAbort = () => resolve(null)
    cancel.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => cancel.removeEventListener('abort', onAbort))
  })
}

/**
 * Of an earlier attempt's runs, those this evaluation plans (another --filter plans others), each
 * at its place in this plan.
 */
function inPlan(runs: RunResult[], plan: RunSpec[]): RunResult[] {
  const indexes = new Map(plan.map((spec) => [specKey(spec), spec.index]))
  return runs.flatMap((run) => {
    const index = indexes.get(runKey(run))
    return index === undefined ? [] : [{ ...run, index }]
  })
}

/** The runs an earlier attempt of the same suite finished with a verdict; none when there is no usable journal. */
function resumableRuns(path: string, suiteHash: string, warn: (message: string) => void): RunResult[] {
  if (!existsSync(path)) {
    warn(`resume: no run journal at ${path} yet; running everything.`)
    return []
  }
  try {
    const { state, skipped } = readJournal(path)
    if (skipped > 0) warn(`resume: skipped ${count(skipped, 'unreadable line')} of ${path} (cut short by a crash?); their runs run again.`)
    if (state.header.suite_hash !== suiteHash) {
      warn(`resume: ${path} is from another suite, models, server, max_steps or max_tool_result_chars; running everything.`)
      return []
    }
    return reusableRuns(state)
  } catch (error) {
    warn(`resume: ${(error as Error).message}; running everything.`)
    return []
  }
}

/** A journal on disk; where it cannot be written, one warning and a journal in memory only. */
function openJournal(path: string, header: JournalHeader, reused: RunResult[], secrets: readonly string[], warn: (message: string) => void): JournalWriter {
  try {
    return new JournalWriter(path, header, reused, secrets, warn)
  } catch (error) {
    warn(`Cannot write the run journal ${path} (${(error as Error).message}): a crash would lose the finished runs.`)
    return new JournalWriter(null, header, reused, secrets)
  }
}

/**
 * What a resumed attempt must share with the journal it reuses: the suite, how runs are bounded,
 * and the server's working directory and the names of its variables and headers (their values
 * are secrets and stay out of any hash).
 */
export function journalHash(prepared: Prepared): string {
  const server = serverTemplate(prepared.server)
  const base = server.kind === 'stdio' ? [server.cwd ?? null, Object.keys(server.env).sort()] : [Object.keys(server.headers).sort()]
  // The directories a root-driven server serves are part of what its runs did (unset: the hash is as before).
  const shape = server.roots ? [...base, server.roots] : base
  // How much of each tool result the model saw (the input can set it apart from the YAML).
  return createHash('sha256').update(JSON.stringify([suiteHash(prepared), prepared.options.maxSteps, shape, prepared.suite.max_tool_result_chars])).digest('hex').slice(0, 16)
}

/**
 * What the recorded LLM answers belong to: the suite file, the models and judge, and the server
 * command or URL (not its env or headers). The tool list needs no part here: it is in every
 * recorded request, so a changed server never replays an old answer.
 */
export function suiteHash(prepared: Prepared): string {
  const { suite, options } = prepared
  // As written: a secret substituted into args or the URL must not change the hash.
  const server = serverTemplate(prepared.server)
  const serverId = server.kind === 'stdio' ? [server.command, ...server.args] : [server.url]
  return createHash('sha256')
    .update(JSON.stringify([readFileSync(options.evalCases, 'utf8'), suite.models, suite.judge_model, serverId, options.baseUrl]))
    .digest('hex')
    .slice(0, 16)
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
    fatal_error: null,
    cancelled: null,
    journal: null,
    changes: null,
    tool_tests: null,
    telemetry: null,
    shard: null
  }
}

/**
 * The document written when the evaluation could not run at all, so outputs always exist:
 * `configuration` for an invalid configuration, `internal` for an unexpected error.
 */
export function fatalDocument(message: string, startedAt = new Date(), kind: 'configuration' | 'internal' = 'configuration'): ResultsDocument {
  return {
    ...emptyDocument(startedAt),
    passed: false,
    behaviour: { status: 'skipped', reason: kind === 'configuration' ? 'the configuration is invalid' : 'the evaluation could not run' },
    fatal_error: message
  }
}

/**
 * Every fraction to 12 significant digits, where the document is written: 8.7 / 10 is
 * 0.8700000000000001 in floating point and 0.87 in the document, while a cost of $0.0000012 keeps
 * its digits.
 */
export function withoutFloatNoise<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'number') return Number.isInteger(v) || !Number.isFinite(v) ? v : Number(v.toPrecision(12))
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return walk(value) as T
}

export interface OutputPaths {
  /** Undefined: the document is not written (`report --from eval-results.json` keeps its input). */
  resultsPath: string | undefined
  reportPath: string
  junitPath?: string
  /** SARIF 2.1.0 for code scanning. */
  sarifPath?: string
  badgePath?: string
  /** One JSON file per run, with its whole transcript. */
  transcriptsDir?: string
}

/**
 * Write the results document and everything rendered from it (report, JUnit XML, badge,
 * per-run transcripts), with every secret redacted first. Returns the texts and the files.
 */
export function writeResults(doc: ResultsDocument, paths: OutputPaths, secrets: readonly string[]) {
  const safe = redactDeep(withoutFloatNoise(doc), secrets)
  const results = `${JSON.stringify(safe, null, 2)}\n`
  const report = renderMarkdownReport(safe)
  const junit = renderJUnit(safe)
  const outputs: [string, string][] = [...(paths.resultsPath ? [[paths.resultsPath, results] as [string, string]] : []), [paths.reportPath, report]]
  if (paths.junitPath) outputs.push([paths.junitPath, junit])
  if (paths.sarifPath) outputs.push([paths.sarifPath, `${JSON.stringify(renderSarif(safe), null, 2)}\n`])
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
