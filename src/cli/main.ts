import { parseArgs } from 'node:util'
import { fromUpstreamRun } from './run-alias.js'
import { ConfigError, ConfigErrors } from '../config/errors.js'
import { docsLink, Flags } from '../constants.js'
import { ignoredInputsNotice, resolveOptions } from '../config/options.js'
import { bundledExample } from '../demo/example.js'
import { casesUnknownToDemo, startDemoModel, type DemoModel } from '../demo/model.js'
import { prepare, type Prepared } from '../config/prepare.js'
import { evaluate } from '../evaluate.js'
import { describeNotWritten, evalsV1Lines, writeResults } from '../output/write-results.js'
import { CANCEL_EXIT_CODES, watchSignals } from '../execute/cancellation.js'
import { keptRunDirs } from '../execute/run-dirs.js'
import { removeLiveRunDirsSync } from '../mcp/run-dirs.js'
import { killAllGroupsSync, terminateAllGroups } from '../mcp/process-group.js'
import { expandMatrix } from '../plan/expand.js'
import { selectCases } from '../config/filter.js'
import { shardOf } from '../plan/shard.js'
import { formatPlanLine } from '../report/plan-line.js'
import { cancelledReason, describeCache, formatConformanceLines, formatProgressLine, formatSummaryLine } from '../report/progress.js'
import { formatToolTestLine } from '../report/tool-test-line.js'
import { VERDICT_RULES } from '../report/verdict-rules.js'
import type { ResultsDocument } from '../results/types.js'
import { redactText } from '../util/redact.js'
import { count } from '../util/words.js'
import { TOOL_VERSION } from '../version.js'
import { LiveProgress, type Output } from './live-progress.js'
import { inertOutput } from './log-output.js'
import { describeFlagError } from './parse-error.js'
import { cliCommand } from './invocation.js'
import { demoDoesNotKnow, DEMO_REPORT_NOTE, firstSteps, unknownCommand } from './first-contact.js'
import { reportUsage, reportCommand } from './report.js'
import { initUsage, initCommand } from './init.js'
import { mergeUsage, mergeCommand } from './merge.js'
import { convertUsage, convertCommand } from './convert.js'
import { HTML_OPTIONS, HTML_USAGE, htmlPathOf, withBareHtml } from './html-flag.js'

const usage = (cmd: string) => `Usage: ${cmd} --server-config <json|file> --eval-cases <file> [options]
       ${cmd} --server-config <json|file> --conformance only [options]   (no suite needed)
       ${cmd} --eval-suite <file> [--server-url URL | --server-config <json|file>] [options]
       ${cmd} run --eval-suite <file> [--output DIR] [options]   (@mcp-use/evals' spelling: --output is --output-dir)
       ${cmd} --demo [options]
       ${cmd} report --from eval-results.json|eval-runs.jsonl [--baseline PATH] [--comment PATH] [options]
       ${cmd} merge FILE_OR_GLOB... [--output PATH] [--comment PATH] [options]
       ${cmd} init --server-config <json|file> [--out DIR] [--format eval-cases|evals-v1]
       ${cmd} convert FILE [--to eval-cases|evals-v1] [--output PATH]

Options (eval-action's flags first):
  --server-config JSON|PATH   MCP server: {"command","args","env","cwd"} or {"url","headers"}
  --eval-cases PATH           eval_cases.yaml (read as evals/v1 when its apiVersion is mcp-use.com/evals/v1)
  --eval-suite PATH           an evals/v1 suite (apiVersion: mcp-use.com/evals/v1); not with --eval-cases
  --server-url URL            a Streamable HTTP server; wins over --server-config and the suite's server
  --output-dir DIR            the results, report and journal go there (evals/v1 default: eval-results)
  --evals-version V, --node-version V
                              @mcp-use/evals' runner settings: accepted and ignored (one notice)
  --filter STR                only cases and tool tests whose id contains STR (evals/v1: scenarios only)
  --output PATH               results JSON (default eval-results.json)
  --max-steps N               LLM calls per run (default 30)
  --parallel / --no-parallel  run concurrently (default) or one at a time
  --report PATH               Markdown report (default eval-report.md)
${HTML_USAGE}
  --junit PATH                also write JUnit XML there
  --sarif PATH                also write SARIF 2.1.0 there (conformance and tool-poisoning findings, failed tool
                              tests, succeeded attacks)
  --concurrency N             runs at once, and tool test attempts at once (default 4)
  --base-url URL              OpenAI-compatible endpoint (default https://openrouter.ai/api/v1)
  --models LIST               comma-separated models, overrides the YAML and EVAL_MODELS
  --judge-model MODEL         overrides the YAML and EVAL_JUDGE_MODEL
  --timeout-seconds N         per run (default 300)
  --api-key KEY               default: $OPENROUTER_API_KEY, then $OPENAI_API_KEY
  --conformance MODE          auto (default: protocol checks alongside the runs; HTTP: first), only, off
  --conformance-fail-on SEV   error (default), warning, never
  --conformance-probes SET    safe (default: probes that call a tool call read-only ones only), all, none
  --conformance-expected-failures PATH
                              a YAML list of check ids (or check-id:method) the server is known to fail: reported
                              as expected, not failed; an entry whose check passes now is stale and fails the run
  --tool-tests MODE           auto (default: the suite's tool tests run, with or without a key), only, off
  --only-tool-tests           the same as --tool-tests only: no model, no key
  --snapshot-dir DIR          tool test snapshots (default __snapshots__ beside --eval-cases)
  --update-snapshots          write missing and changed snapshots instead of failing on them
  --baseline PATH             an earlier results document to gate against
  --gate MODE                 delta (default with a baseline), absolute (default without), both
  --max-drop X                largest allowed fall of an aggregate metric (default 0.02)
  --max-cost-usd USD          budget for the whole evaluation's spend; once reached, no new run starts
  --max-cost-per-run-usd USD  budget for the agent's cost of any one run
  --max-tokens-per-run N      budget for the agent's tokens (input and output) of any one run
  --max-p95-tool-ms MS        budget for any tool's p95 latency (the YAML's budgets.tools sets one per tool)
  --max-p95-run-s S           budget for any model's p95 run duration
  --max-p95-increase R        largest allowed rise of a tool's or model's p95 against the baseline (0.25 = +25 %)
  --max-cost-increase R       largest allowed rise of a model's cost per run against the baseline
                              (the YAML's budgets: wins over these flags, key by key)
  --cache MODE                record and replay LLM answers: off (default), read-write, read-only
  --cache-dir DIR             where they are kept (default .mcp-evals-cache)
  --journal PATH              the run journal, one line per finished run (default eval-runs.jsonl beside --output)
  --resume                    reuse the runs an interrupted attempt of the same suite finished (from the journal)
  --max-tool-result-chars N   the most characters of a tool result shown to the model (and of the answer shown to
                              the judge), the rest cut with a marker; wins over the YAML's (default 100,000; 0: no limit)
  --keep-run-dirs             keep the \${RUN_DIR} of each run that failed or errored, under
                              $RUNNER_TEMP (else the temp directory)/mcp-server-evals-run-dirs (run_dir in the results)
  --chrome-path PATH          the Chrome or Chromium that renders MCP Apps (default: $CHROME_PATH, then the usual
                              places; none found: the app layer is skipped with a notice)
  --app-visual-diff MODE      a screenshot changed against the baseline: review (default: a finding to look at), fail
  --shard I/N                 run shard I of N: the plan's groups (case × model × prompt, every repeat together)
                              split into N balanced parts; conformance and tool tests in shard 1 only; the default
                              files get a .shard-I-of-N suffix; no verdict: merge the shards' results for it
  --server-reuse MODE         run (default: a fresh server process per run), worker (one stdio server process per
                              concurrency slot, reused by its runs: for servers with no state between sessions)
  --otlp-endpoint URL         export OpenTelemetry spans over OTLP/HTTP to this base URL (/v1/traces is appended
                              unless the path ends in it);
                              default: $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, then $OTEL_EXPORTER_OTLP_ENDPOINT
  --otlp-headers LIST         key=value,key2=value2 sent with every export (values are secrets);
                              (the exporter also merges in $OTEL_EXPORTER_OTLP_TRACES_HEADERS and
                              $OTEL_EXPORTER_OTLP_HEADERS; the headers given here win per key)
  --demo                      try it with no key and no network: the bundled demo model, a scripted stand-in
                              for a real model on 127.0.0.1, against the bundled example server and cases
                              (unless --server-config / --eval-cases say otherwise); not with --base-url or --api-key
  -h, --help                  this text
  -v, --version               print the version

On a terminal (and not under CI) a status line at the bottom shows runs done, in flight and
failed, the time and the spend; elsewhere the output is plain lines.

Verdict and exit status (the action's inputs conformance_fail_on, gate and max_drop are the
flags --conformance-fail-on, --gate and --max-drop):
${VERDICT_RULES}
After a signal, what had finished is written; a second signal exits at once.

The reference: ${docsLink('cli.md')} (every flag), ${docsLink('suite-format.md')}
(server_config and eval_cases.yaml), and every page: ${docsLink('README.md')}

${reportUsage(cmd)}

${mergeUsage(cmd)}

${initUsage(cmd)}

${convertUsage(cmd)}`

const hintLine = (cmd: string) => `Run '${cmd} --help' for the options.`

const OPTIONS = {
  'server-config': { type: 'string' },
  'eval-cases': { type: 'string' },
  'eval-suite': { type: 'string' },
  'server-url': { type: 'string' },
  'output-dir': { type: 'string' },
  'evals-version': { type: 'string' },
  'node-version': { type: 'string' },
  filter: { type: 'string' },
  output: { type: 'string' },
  report: { type: 'string' },
  'max-steps': { type: 'string' },
  parallel: { type: 'boolean' },
  'no-parallel': { type: 'boolean' },
  concurrency: { type: 'string' },
  'base-url': { type: 'string' },
  models: { type: 'string' },
  'judge-model': { type: 'string' },
  'timeout-seconds': { type: 'string' },
  'api-key': { type: 'string' },
  conformance: { type: 'string' },
  'conformance-fail-on': { type: 'string' },
  'conformance-probes': { type: 'string' },
  'conformance-expected-failures': { type: 'string' },
  'tool-tests': { type: 'string' },
  'only-tool-tests': { type: 'boolean' },
  'snapshot-dir': { type: 'string' },
  'update-snapshots': { type: 'boolean' },
  junit: { type: 'string' },
  sarif: { type: 'string' },
  ...HTML_OPTIONS,
  gate: { type: 'string' },
  'max-drop': { type: 'string' },
  baseline: { type: 'string' },
  cache: { type: 'string' },
  'cache-dir': { type: 'string' },
  journal: { type: 'string' },
  resume: { type: 'boolean' },
  'max-cost-usd': { type: 'string' },
  'max-cost-per-run-usd': { type: 'string' },
  'max-tokens-per-run': { type: 'string' },
  'max-p95-tool-ms': { type: 'string' },
  'max-p95-run-s': { type: 'string' },
  'max-p95-increase': { type: 'string' },
  'max-cost-increase': { type: 'string' },
  'otlp-endpoint': { type: 'string' },
  'otlp-headers': { type: 'string' },
  'max-tool-result-chars': { type: 'string' },
  'keep-run-dirs': { type: 'boolean' },
  'chrome-path': { type: 'string' },
  'app-visual-diff': { type: 'string' },
  shard: { type: 'string' },
  'server-reuse': { type: 'string' },
  demo: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' }
} as const

/** Where the CLI writes (the process's streams; tests pass their own). */
export interface CliIO {
  stdout: Output & { isTTY?: boolean }
  stderr: Output
}

/** A usage error: the command line itself is wrong (the help hint follows it). */
class UsageError extends ConfigError {}

/** The placeholder key `--demo` sends (the demo model reads none). */
const DEMO_API_KEY = 'demo-key-not-used'

/**
 * The CLI: the same engine as the action, flags instead of inputs. Returns the exit code. A usage
 * or configuration error is printed and exits 2 before anything runs or any file is written.
 */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, streams: CliIO = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  // Every line printed, whatever the command, through the neutraliser: text from a server or a model is inert in a workflow's log.
  const io: CliIO = { stdout: inertOutput(streams.stdout), stderr: inertOutput(streams.stderr) }
  if (argv[0] === 'report') return reportCommand(argv.slice(1), io)
  if (argv[0] === 'merge') return mergeCommand(argv.slice(1), io)
  if (argv[0] === 'init') return initCommand(argv.slice(1), io)
  if (argv[0] === 'convert') return convertCommand(argv.slice(1), io)
  const cmd = cliCommand()
  const usageError = (message: string, hint = true) => {
    io.stderr.write(`error: ${message}\n${hint ? `${hintLine(cmd)}\n` : ''}`)
    return 2
  }
  // A first try with nothing (or a misspelt command) gets where to start, not "--server-config: is required".
  if (argv.length === 0) {
    io.stderr.write(firstSteps(cmd))
    return 2
  }
  const command = argv[0] !== 'run' ? unknownCommand(argv[0]) : null
  if (command !== null) return usageError(command)
  argv = withBareHtml(fromUpstreamRun(argv))
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({ args: argv, options: OPTIONS, strict: true }).values
  } catch (error) {
    return usageError(describeParseError(error as Error))
  }
  if (values.help) {
    io.stdout.write(`${usage(cmd)}\n`)
    return 0
  }
  if (values.version) {
    io.stdout.write(`${TOOL_VERSION}\n`)
    return 0
  }
  const text = (name: string) => values[name] as string | undefined
  // A flag as the options read it: its value, under the name errors print (`--max-steps`).
  const flag = (name: string) => ({ value: text(name.slice(2)), name })

  let demo: DemoModel | null = null
  try {
    let prepared: Prepared
    let htmlPath: string | undefined
    try {
      const demoSources = values.demo ? demoDefaults(values) : null
      if (values['only-tool-tests'] && text('tool-tests') !== undefined && text('tool-tests') !== 'only') {
        throw new UsageError(`cannot be combined with ${Flags.ToolTests} ${text('tool-tests')}`, { input: Flags.OnlyToolTests })
      }
      if (values.demo) demo = await startDemoModel()
      const options = resolveOptions({
        // --demo with --eval-suite: the demo model, and the suite's own server unless --server-config says otherwise.
        serverConfig: { value: text('server-config') ?? (text('eval-suite') === undefined ? demoSources?.serverConfig : undefined), name: Flags.ServerConfig },
        evalCases: { value: text('eval-cases') ?? (text('eval-suite') === undefined ? demoSources?.evalCases : undefined), name: Flags.EvalCases },
        evalSuite: flag(Flags.EvalSuite),
        serverUrl: flag(Flags.ServerUrl),
        outputDir: flag(Flags.OutputDir),
        ignored: [flag(Flags.EvalsVersion), flag(Flags.NodeVersion)],
        apiKey: demo
          ? { value: DEMO_API_KEY, name: Flags.ApiKey }
          : { value: text('api-key') || env.OPENROUTER_API_KEY || env.OPENAI_API_KEY, name: Flags.ApiKey, env: ['OPENROUTER_API_KEY', 'OPENAI_API_KEY'] },
        filter: flag(Flags.Filter),
        maxSteps: flag(Flags.MaxSteps),
        // Not given: an evals/v1 suite's ci.parallelCases may decide.
        parallel: { value: values['no-parallel'] ? 'false' : values.parallel ? 'true' : undefined, name: Flags.Parallel },
        concurrency: flag(Flags.Concurrency),
        baseUrl: demo ? { value: demo.url, name: Flags.Demo } : flag(Flags.BaseUrl),
        judgeModel: flag(Flags.JudgeModel),
        models: flag(Flags.Models),
        timeoutSeconds: flag(Flags.TimeoutSeconds),
        resultsPath: flag(Flags.Output),
        reportPath: flag(Flags.Report),
        conformance: flag(Flags.Conformance),
        conformanceFailOn: flag(Flags.ConformanceFailOn),
        conformanceProbes: flag(Flags.ConformanceProbes),
        conformanceExpectedFailures: flag(Flags.ConformanceExpectedFailures),
        toolTests: values['only-tool-tests'] ? { value: 'only', name: Flags.OnlyToolTests } : flag(Flags.ToolTests),
        snapshotDir: flag(Flags.SnapshotDir),
        updateSnapshots: { value: values['update-snapshots'] ? 'true' : 'false', name: Flags.UpdateSnapshots },
        gate: flag(Flags.Gate),
        maxDrop: flag(Flags.MaxDrop),
        baseline: flag(Flags.Baseline),
        cache: flag(Flags.Cache),
        cacheDir: flag(Flags.CacheDir),
        journal: flag(Flags.Journal),
        resume: { value: values.resume ? 'true' : 'false', name: Flags.Resume },
        budgets: {
          max_cost_usd: flag(Flags.MaxCostUsd),
          max_cost_per_run_usd: flag(Flags.MaxCostPerRunUsd),
          max_tokens_per_run: flag(Flags.MaxTokensPerRun),
          max_p95_tool_ms: flag(Flags.MaxP95ToolMs),
          max_p95_run_s: flag(Flags.MaxP95RunS),
          max_p95_increase: flag(Flags.MaxP95Increase),
          max_cost_increase: flag(Flags.MaxCostIncrease)
        },
        otlpEndpoint: flag(Flags.OtlpEndpoint),
        otlpHeaders: flag(Flags.OtlpHeaders),
        maxToolResultChars: flag(Flags.MaxToolResultChars),
        keepRunDirs: { value: values['keep-run-dirs'] ? 'true' : 'false', name: Flags.KeepRunDirs },
        chromePath: flag(Flags.ChromePath),
        appVisualDiff: flag(Flags.AppVisualDiff),
        shard: flag(Flags.Shard),
        serverReuse: flag(Flags.ServerReuse)
      })
      prepared = prepare(options, env)
      htmlPath = htmlPathOf(values, prepared.options.reportPath, prepared.options.shard)
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      // Nothing is written: the last results and report stay as they were.
      return usageError(error.message, isAboutTheCommandLine(error))
    }
    return await run(prepared, values, env, io, demo, htmlPath)
  } finally {
    await demo?.close()
  }
}

/** The evaluation itself, once everything is valid: progress, then the files and the verdict. */
async function run(prepared: Prepared, values: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv, io: CliIO, demo: DemoModel | null, htmlPath: string | undefined): Promise<number> {
  const { secrets, options, suite } = prepared
  const say = (line: string) => io.stdout.write(`${redactText(line, secrets)}\n`)
  const ignored = ignoredInputsNotice(options.ignoredInputs)
  if (ignored) io.stderr.write(`notice: ${ignored}\n`)
  if (demo) {
    say(`Demo: the model at ${demo.url} is a scripted stand-in (examples/demo-model/brain.ts), not a real model: it plays a good model on the bundled example's cases, so its scores say nothing about any real model, and its tokens and costs are simulated.`)
    const selected = options.skipBehaviour ? [] : selectCases(suite, options.filter)
    const unknown = casesUnknownToDemo(selected)
    if (unknown.length > 0) io.stderr.write(`warning: ${demoDoesNotKnow(unknown, selected.length, options.evalCases)}\n`)
  }
  if (options.skipBehaviour) say(`Behaviour evals skipped: ${options.skipBehaviour}.`)
  else say(formatPlanLine(suite, options))

  const planned = options.skipBehaviour ? 0 : shardOf(expandMatrix(suite, { filter: options.filter, today: '' }), options.shard).length
  const live = new LiveProgress(io.stdout, { isTTY: LiveProgress.wanted(io.stdout, env), total: planned, simulatedCost: demo !== null })
  const signals = watchSignals({
    onCancel: (reason) => {
      live.stop()
      io.stderr.write(`\n${reason.signalName}: stopping; writing what has finished (again to exit at once).\n`)
      void terminateAllGroups()
    },
    onForce: () => {
      live.stop()
      killAllGroupsSync()
      removeLiveRunDirsSync()
    }
  })
  try {
    const doc = await evaluate(prepared, {
      cancel: signals.signal,
      onWarning: (message) => live.line(`warning: ${redactText(message, secrets)}`, io.stderr),
      onRunStarted: (spec) => live.started(spec),
      onRunFinished: (r, n, total) => live.finished(r, redactText(formatProgressLine(r, n, total), secrets)),
      onToolTestFinished: (test, n, total) => live.line(redactText(formatToolTestLine(test, n, total), secrets))
    })
    live.stop()
    let written: ReturnType<typeof writeResults>
    try {
      written = writeResults(
        doc,
        { ...options, evalsV1Dir: options.outputDir, junitPath: values.junit as string | undefined, sarifPath: values.sarif as string | undefined, htmlPath },
        secrets,
        { reportNote: demo ? DEMO_REPORT_NOTE : undefined }
      )
    } catch (error) {
      // Never a success without its results document, whatever the verdict.
      io.stderr.write(`error: ${redactText(`${describeNotWritten(error, options.resultsPath)}; the runs are in the journal ${options.journalPath} (${cliCommand()} report --from ${options.journalPath})`, secrets)}\n`)
      return 1
    }
    // The document's section, not the probes' report: it holds the checks observed on the runs' calls too, as the report does.
    if (written.document.conformance) formatConformanceLines(written.document.conformance).forEach(say)
    say(formatSummaryLine(written.document, { simulatedCost: demo !== null }))
    const cache = formatCacheLine(written.document)
    if (cache) say(cache)
    io.stdout.write(`Results: ${options.resultsPath}\n${evalsV1Lines(written.document, options.outputDir)}Report:  ${options.reportPath}\n${htmlPath ? `HTML:    ${htmlPath}\n` : ''}Journal: ${options.journalPath}\n`)
    const kept = keptRunDirs(written.document.runs)
    if (kept) io.stdout.write(`Run dirs: ${kept.parent} (kept for ${count(kept.count, 'failed run')}, --keep-run-dirs)\n`)
    const cancelled = signals.received()
    if (cancelled) {
      io.stderr.write(`${cancelledReason(written.document)}\n`)
      return CANCEL_EXIT_CODES[cancelled.signalName]
    }
    return doc.passed ? 0 : 1
  } finally {
    live.stop()
    signals.dispose()
  }
}

/** "Cache: 12 hits, 3 misses (4,200 tokens saved)", when the response cache was used; else null. */
export function formatCacheLine(doc: ResultsDocument): string | null {
  const cache = doc.summary.cache
  if (!cache || cache.mode === 'off') return null
  return `Cache: ${describeCache(cache)}`
}

/** `--demo`: it brings its own model, and the bundled example for what is not given. */
function demoDefaults(values: Record<string, string | boolean | undefined>): { serverConfig?: string; evalCases?: string } {
  const clashing = [Flags.BaseUrl, Flags.ApiKey].filter((name) => values[name.slice(2)] !== undefined)
  if (clashing.length > 0) {
    throw new UsageError(`cannot be combined with ${clashing.join(' or ')}: it runs against the bundled demo model, on its own local URL and with no key`, { input: Flags.Demo })
  }
  if (values['server-config'] !== undefined && values['eval-cases'] !== undefined) return {}
  return bundledExample()
}

/** Errors about the flags themselves get the help hint; errors inside a file or a JSON value do not. */
function isAboutTheCommandLine(error: ConfigError): boolean {
  if (error instanceof UsageError) return true
  if (error instanceof ConfigErrors) return false
  return error.where.file === undefined && error.where.path === undefined && (error.where.input ?? '').startsWith('--')
}

const FLAG_NAMES = Object.keys(OPTIONS)

/** parseArgs' message, first sentence only, with a "did you mean" for a mistyped long flag. */
export function describeParseError(error: Error): string {
  return describeFlagError(error, FLAG_NAMES)
}
