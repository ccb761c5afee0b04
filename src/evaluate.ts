import { applyGate } from './execute/baseline.js'
import { suiteJudgesApps } from './apps/needs.js'
import type { AppHostOpening, AppHostOptions } from './apps/types.js'
import { appsPlan } from './execute/apps-plan.js'
import { appScreensOf, appsRunLayerFor } from './apps/run-layer.js'
import { runLayersWith } from './execute/run-layers.js'
import { appsRootOf } from './output/app-files.js'
import type { Prepared } from './config/prepare.js'
import { runDirsBase, usesRunDir } from './config/run-dir.js'
import { startConformance } from './conformance/run.js'
import { seedsOf } from './conformance/probe-mrtr.js'
import type { ConformanceReport } from './conformance/types.js'
import { cancelledSummary, executeRuns, resultsConfig, type EngineDeps } from './engine.js'
import { documentFromJournal, JOURNAL_VERSION, openJournal, type JournalHeader } from './execute/journal.js'
import { behaviourStatus, toolTestsPlan } from './execute/layer-plan.js'
import { recordConformance, untilCancelled } from './execute/record-conformance.js'
import { resumeFrom } from './execute/resume.js'
import { withoutRunDirs } from './execute/run-dirs.js'
import { journalHash } from './execute/suite-hash.js'
import { runSuiteToolTests } from './execute/suite-tool-tests.js'
import { createCachingChatClient, type CacheStats } from './llm/cache.js'
import { createChatClient, emptyUsage, type ChatClient } from './llm/chat.js'
import { withServerReuse } from './mcp/session-reuse.js'
import { createSessionFactory, priorOf } from './mcp/session.js'
import { expandMatrix, localDate, runKey } from './plan/expand.js'
import { planGroups, shardOf, shareOfBudget } from './plan/shard.js'
import type { Cancellation, ResultsDocument, ToolTestResult } from './results/types.js'
import { createGEvalJudge } from './scoring/geval.js'
import { createSemanticMatcher } from './scoring/semantic.js'
import { createVisionJudge } from './scoring/vision-judge.js'
import { createSpendMeter, meteredClient, spentBy } from './telemetry/spend.js'
import { createTracing } from './telemetry/tracing.js'
import { redactText } from './util/redact.js'
import { TOOL_VERSION } from './version.js'

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
  /** Replace the MCP Apps browser host's opener (tests give a double); absent: src/apps/host.ts, loaded only when the suite renders apps. */
  openAppHost?: (options: AppHostOptions) => Promise<AppHostOpening>
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
  // app.judge's vision judge asks the endpoint directly: its calls are neither cached nor metered against max_cost_usd.
  const visionJudge = suiteJudgesApps(suite) ? createVisionJudge(chatClientOf(prepared, hooks), suite.judge_model) : undefined
  const apps = appsPlan(prepared, { cancel: hooks.cancel, warn, open: hooks.openAppHost, judge: visionJudge })
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
    ...(suite.evals_v1 ? { evals_v1: suite.evals_v1 } : {}),
    ...(apps ? { apps: apps.settings } : {}),
    ...(options.shard ? { shard: { ...options.shard, planned_total: whole.length, groups_total: planGroups(whole).length, groups: planGroups(plan).length } } : {})
  }
  const resumed = options.resume && behaviour.status === 'ran' ? resumeFrom(options.journalPath, header.suite_hash, plan, warn) : { runs: [], apps: null }
  const reused = resumed.runs
  const journal = openJournal(options.journalPath, header, reused, prepared.secrets, warn)
  // The reused runs' views were rendered in the earlier attempt's browser: said so until this attempt opens its own.
  if (apps && resumed.apps) journal.append({ type: 'apps', ...resumed.apps })
  // The browser host opens on the first render (none when nothing reaches one); closed in the finally, and at once on cancel.
  const appsLayer = apps?.open((opened) => journal.append({ type: 'apps', ...opened })) ?? null
  // A trace per run, exported when an OTLP endpoint is set; a failed export is one warning, never a failed evaluation.
  const tracing = createTracing({ otlp: prepared.otlp, onWarning: warn, serviceVersion: TOOL_VERSION })
  try {
    // Conformance starts first, and the runs as soon as its first step has reached the server and
    // learned its era (they use processes of their own); the other probes go on meanwhile.
    const conformance = options.conformance !== 'off' && freeLayers && !hooks.cancel?.aborted ? startConformance(server, { signal: hooks.cancel, probes: options.conformanceProbes, seeds: seedsOf(suite.tool_tests) }) : null
    // Written when the probe is done, whenever that is (the document is built from the journal); awaited at the end.
    const expected = options.conformanceExpectedFailures ?? null
    if (expected?.notice) warn(expected.notice)
    if (expected && options.conformance === 'off') warn(`${expected.file}: the expected failures are not read: conformance is off`)
    const conformanceDone = conformance ? recordConformance(conformance.report, journal, options.conformanceFailOn, hooks, warn, expected) : Promise.resolve()
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
    const toolTestsDone = toolTests?.status === 'ran' && !unreachable ? runSuiteToolTests(prepared, toolTests.ids, sessions, journal, hooks, appsLayer) : Promise.resolve()
    let cache: CacheStats | null = null
    let overhead = emptyUsage()
    let cancelled: Cancellation | null = cancelledSummary(hooks.cancel, { planned: header.planned, finished: 0 })
    if (behaviour.status === 'ran' && !unreachable) {
      const base = chatClientOf(prepared, hooks)
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
      // MCP Apps in the runs (apps: render): the views their calls return, rendered on the job's browser host.
      const appsRuns = appsRunLayerFor(suite, appsLayer)
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
        tracing,
        layers: runLayersWith(appsRuns),
        ...(appsRuns ? { appScreens: appScreensOf(appsRootOf(options.outputDir, options.resultsPath), appsRuns, visionJudge) } : {})
      }))
      overhead = executed.overhead
      cancelled = cancelledSummary(hooks.cancel, executed)
    }
    await toolTestsDone
    await conformanceDone
    cancelled ??= cancelledSummary(hooks.cancel, { planned: header.planned, finished: 0 })
    journal.append({ type: 'end', duration_s: Math.round((performance.now() - started) / 100) / 10, overhead, cache, cancelled })
  } finally {
    // Closed before the journal, so how its opening went is journaled even when it ended the evaluation.
    await appsLayer?.close()
    journal.close()
    // Cancelled runs' spans too: everything is sent (or given up on, within a few seconds) before the document is.
    await tracing.shutdown()
  }
  return applyGate(documentFromJournal(journal.state), header.gate, warn, { outputDir: appsRootOf(options.outputDir, options.resultsPath) })
}

/** The evaluation's chat client: the hook's (a test's scripted server), else the OpenAI-compatible endpoint at base_url with the API key. */
function chatClientOf({ options }: Prepared, hooks: EvaluateHooks): ChatClient {
  return hooks.llm ?? createChatClient({ baseURL: options.baseUrl, apiKey: options.apiKey || 'none', maxRetries: hooks.llmMaxRetries })
}
