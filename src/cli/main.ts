import { parseArgs } from 'node:util'
import { ConfigError } from '../config/errors.js'
import { resolveOptions } from '../config/options.js'
import { evaluate, fatalDocument, prepare, writeResults } from '../evaluate.js'
import { CANCEL_EXIT_CODES, watchSignals } from '../execute/cancellation.js'
import { killAllGroupsSync, terminateAllGroups } from '../mcp/process-group.js'
import { cancelledReason, formatConformanceLines, formatProgressLine, formatSummaryLine } from '../report/progress.js'
import { REPORT_USAGE, reportCommand } from './report.js'
import { redactText } from '../util/redact.js'
import { TOOL_VERSION } from '../version.js'

const USAGE = `Usage: mcp-server-evals --server-config <json|file> --eval-cases <file> [options]
       mcp-server-evals report --from eval-runs.jsonl [--output PATH] [--report PATH] [--junit PATH]

Options (eval-action's flags first):
  --server-config JSON|PATH   MCP server: {"command","args","env","cwd"} or {"url","headers"}
  --eval-cases PATH           eval_cases.yaml
  --filter STR                only cases whose id contains STR
  --output PATH               results JSON (default eval-results.json)
  --max-steps N               LLM calls per run (default 30)
  --parallel / --no-parallel  run concurrently (default) or one at a time
  --report PATH               Markdown report (default eval-report.md)
  --junit PATH                also write JUnit XML there
  --concurrency N             runs at once (default 4)
  --base-url URL              OpenAI-compatible endpoint (default https://openrouter.ai/api/v1)
  --models LIST               comma-separated models, overrides the YAML and EVAL_MODELS
  --judge-model MODEL         overrides the YAML and EVAL_JUDGE_MODEL
  --timeout-seconds N         per run (default 300)
  --api-key KEY               default: $OPENROUTER_API_KEY, then $OPENAI_API_KEY
  --conformance MODE          auto (default: protocol checks, then the runs), only, off
  --conformance-fail-on SEV   error (default), warning, never
  --baseline PATH             an earlier results document to gate against
  --gate MODE                 delta (default with a baseline), absolute (default without), both
  --max-drop X                largest allowed fall of an aggregate metric (default 0.02)
  --cache MODE                record and replay LLM answers: off (default), read-write, read-only
  --cache-dir DIR             where they are kept (default .mcp-evals-cache)
  --journal PATH              the run journal, one line per finished run (default eval-runs.jsonl beside --output)
  --resume                    reuse the runs an interrupted attempt of the same suite finished (from the journal)
  -h, --help                  this text
  -v, --version               print the version

Exit status: 0 passed, 1 the gate or conformance failed, 2 bad usage or configuration,
130 / 143 / 129 cancelled by SIGINT / SIGTERM / SIGHUP (what had finished is written; a second signal exits at once).

${REPORT_USAGE}`

/** The CLI: the same engine as the action, flags instead of inputs. Returns the exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv[0] === 'report') return reportCommand(argv.slice(1))
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({
      args: argv,
      options: {
        'server-config': { type: 'string' },
        'eval-cases': { type: 'string' },
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
        junit: { type: 'string' },
        gate: { type: 'string' },
        'max-drop': { type: 'string' },
        baseline: { type: 'string' },
        cache: { type: 'string' },
        'cache-dir': { type: 'string' },
        journal: { type: 'string' },
        resume: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' }
      },
      strict: true
    }).values
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`)
    return 2
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (values.version) {
    process.stdout.write(`${TOOL_VERSION}\n`)
    return 0
  }
  const flag = (name: string) => ({ value: values[name] as string | undefined, name: `--${name}` })
  let prepared
  try {
    const options = resolveOptions({
      serverConfig: flag('server-config'),
      evalCases: flag('eval-cases'),
      apiKey: { value: (values['api-key'] as string | undefined) ?? env.OPENROUTER_API_KEY ?? env.OPENAI_API_KEY, name: '--api-key (or OPENROUTER_API_KEY)' },
      filter: flag('filter'),
      maxSteps: flag('max-steps'),
      parallel: { value: values['no-parallel'] ? 'false' : 'true', name: '--parallel' },
      concurrency: flag('concurrency'),
      baseUrl: flag('base-url'),
      judgeModel: flag('judge-model'),
      models: flag('models'),
      timeoutSeconds: flag('timeout-seconds'),
      resultsPath: flag('output'),
      reportPath: flag('report'),
      conformance: flag('conformance'),
      conformanceFailOn: flag('conformance-fail-on'),
      gate: flag('gate'),
      maxDrop: flag('max-drop'),
      baseline: flag('baseline'),
      cache: flag('cache'),
      cacheDir: flag('cache-dir'),
      journal: flag('journal'),
      resume: { value: values.resume ? 'true' : 'false', name: '--resume' }
    })
    prepared = prepare(options, env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`error: ${error.message}\n`)
    const output = (values.output as string | undefined) ?? 'eval-results.json'
    const report = (values.report as string | undefined) ?? 'eval-report.md'
    writeResults(fatalDocument(error.message), { resultsPath: output, reportPath: report }, [])
    return 2
  }

  const { secrets } = prepared
  if (prepared.options.skipBehaviour) process.stdout.write(`Behaviour evals skipped: ${prepared.options.skipBehaviour}.\n`)
  const signals = watchSignals({
    onCancel: (reason) => {
      process.stderr.write(`\n${reason.signalName}: stopping; writing what has finished (again to exit at once).\n`)
      void terminateAllGroups()
    },
    onForce: killAllGroupsSync
  })
  try {
    const doc = await evaluate(prepared, {
      cancel: signals.signal,
      onWarning: (message) => process.stderr.write(`warning: ${redactText(message, secrets)}\n`),
      onConformance: (report) => process.stdout.write(formatConformanceLines(report).map((l) => `${redactText(l, secrets)}\n`).join('')),
      onRunFinished: (run, n, total) => process.stdout.write(`${redactText(formatProgressLine(run, n, total), secrets)}\n`)
    })
    const written = writeResults(doc, { ...prepared.options, junitPath: values.junit as string | undefined }, prepared.secrets)
    process.stdout.write(
      `${redactText(formatSummaryLine(written.document), secrets)}\nResults: ${prepared.options.resultsPath}\nReport:  ${prepared.options.reportPath}\nJournal: ${prepared.options.journalPath}\n`
    )
    const cancelled = signals.received()
    if (cancelled) {
      process.stderr.write(`${cancelledReason(written.document)}\n`)
      return CANCEL_EXIT_CODES[cancelled.signalName]
    }
    return doc.passed ? 0 : 1
  } finally {
    signals.dispose()
  }
}

