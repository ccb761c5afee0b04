import { judgeModelOverride, modelsOverride } from './model-overrides.js'
import { Inputs } from '../constants.js'
import { EVALS_V1_GATES, type EvalsV1Context, type EvalsV1NotRun, type EvalsV1Section } from '../results/evals-v1.js'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { ConfigError, ConfigErrors } from './errors.js'
import { contextOf, matrixOf } from './evals-v1-matrix.js'
import { EVALS_V1_API_VERSION, parseRawV1Suite, type RawV1Server } from './evals-v1-raw.js'
import { caseOfScenario, toolTestOfCheck } from './evals-v1-translate.js'
import type { SuiteOverrides } from './suite.js'
import { appsSettingsOf } from './app-test.js'
import { DEFAULT_JUDGE_MODEL, DEFAULT_MAX_TOOL_RESULT_CHARS, DEFAULT_THRESHOLD, NO_BUDGETS, type Suite } from './types.js'
import { dedupe, dotted, type YamlPath } from './yaml-document.js'

export { EVALS_V1_API_VERSION } from './evals-v1-raw.js'

/** What the models and judge overrides are, and this run's context for the clients' runOn (default: from the environment). */
export interface EvalsV1Overrides extends SuiteOverrides {
  context?: EvalsV1Context
}

/** The suite's `server:` block with where it is, for the server's resolution (evals-v1-server.ts). */
export interface V1ServerBlock {
  data: RawV1Server
  locate(path: YamlPath): ConfigError['where']
}

/** What `defaults:` and `ci:` say about the options, applied where the input or flag was not given (evals-v1-options.ts). */
export interface V1OptionDefaults {
  timeoutMs: number | null
  maxAgentSteps: number | null
  parallelCases: boolean | null
}

/** An evals/v1 suite translated: our Suite (with `evals_v1`), its server block and its option defaults. */
export interface EvalsV1Loaded {
  suite: Suite
  server: V1ServerBlock | null
  defaults: V1OptionDefaults
}

/** `apiVersion: mcp-use.com/evals/v1` at the top level: the file is an evals/v1 suite, whatever input named it. */
export function isEvalsV1Text(text: string): boolean {
  return /^apiVersion[ \t]*:[ \t]*(["']?)mcp-use\.com\/evals\/v1\1[ \t]*(#.*)?$/m.test(text)
}

export function loadEvalsV1Suite(path: string, overrides: EvalsV1Overrides = {}, input: string = Inputs.EvalSuite): EvalsV1Loaded {
  let text: string
  try {
    text = readBoundedFile(path, FileLimits.suite)
  } catch (error) {
    throw new ConfigError(`cannot read the evals/v1 suite: ${(error as Error).message}`, { file: path, input })
  }
  return parseEvalsV1Suite(text, path, overrides)
}

/**
 * Parse, validate and translate evals/v1 text: checks become tool tests, scenarios conversation
 * cases, the clients × models × system prompts the matrix, `metrics.gates` three budgets, and
 * the rest the `evals_v1` section. Every problem names file, line, column and path.
 */
export function parseEvalsV1Suite(text: string, file: string, overrides: EvalsV1Overrides = {}): EvalsV1Loaded {
  const { raw, parsed } = parseRawV1Suite(text, file)
  const { locate } = parsed
  const problems: ConfigError[] = []
  const report = (message: string, path: YamlPath) => problems.push(new ConfigError(message, locate(path)))
  const unique = (what: string, ids: { id: string; path: YamlPath }[]) => {
    const seen = new Map<string, YamlPath>()
    for (const { id, path } of ids) {
      const earlier = seen.get(id)
      if (earlier) report(`duplicate ${what} id '${id}' (first used at ${dotted(earlier)})`, [...path, 'id'])
      else seen.set(id, path)
    }
  }
  const checks = raw.flows.flatMap((f, i) => (f.checks ?? []).map((c, j) => ({ c, path: ['flows', i, 'checks', j] })))
  const scenarios = raw.flows.flatMap((f, i) => f.scenarios.map((s, j) => ({ s, path: ['flows', i, 'scenarios', j] })))
  unique('check', checks.map(({ c, path }) => ({ id: c.id, path })))
  unique('scenario', scenarios.map(({ s, path }) => ({ id: s.id, path })))

  const context = overrides.context ?? contextOf(process.env)
  const matrix = matrixOf(raw.flows, context, modelsOverride(overrides), locate)
  const threshold = raw.defaults?.rubricThreshold ?? DEFAULT_THRESHOLD
  const notRun: EvalsV1NotRun[] = [...matrix.not_run]
  const toolTests = checks.map(({ c, path }) => toolTestOfCheck(c, path, report))
  const cases = scenarios.map(({ s, path }) => caseOfScenario(s, path, report, { threshold }))
  if (problems.length > 0) throw new ConfigErrors(dedupe(problems))

  const gates = raw.metrics?.gates ?? {}
  const suite: Suite = {
    source: file,
    judge_model: judgeModelOverride(overrides) ?? raw.defaults?.judgeModel ?? DEFAULT_JUDGE_MODEL,
    models: matrix.models,
    system_prompts: matrix.system_prompts,
    // No client runs here: the scenarios do not run, as in @mcp-use/evals (the clients say why in evals_v1.not_run).
    cases: matrix.runs ? cases : [],
    tool_tests: toolTests,
    pass_floors: { hard: 1, soft: 0.8 },
    resilience_floors: { min_recovery_rate: null, min_attack_resistance: null },
    budgets: { ...NO_BUDGETS, tools: {}, ...Object.fromEntries(EVALS_V1_GATES.map(({ gate, budget }) => [budget, gates[gate] ?? null])) },
    pricing: {},
    max_tool_result_chars: typeof overrides.maxToolResultChars === 'number' ? overrides.maxToolResultChars : DEFAULT_MAX_TOOL_RESULT_CHARS,
    vision: { models: {}, patterns: [] },
    tool_error_patterns: [],
    // An evals/v1 suite has no apps: key; app_visual_diff still applies to its screenshots.
    apps: appsSettingsOf(undefined, overrides.appVisualDiff),
    ...(matrix.disallowed_tools ? { disallowed_tools: matrix.disallowed_tools } : {}),
    evals_v1: {
      api_version: EVALS_V1_API_VERSION,
      name: raw.name,
      intent: raw.intent ?? null,
      triggers: raw.triggers ?? null,
      flows: raw.flows.map((f) => ({ id: f.id, checks: (f.checks ?? []).map((c) => c.id), scenarios: f.scenarios.map((s) => s.id) })),
      clients: matrix.clients,
      context,
      gates: Object.fromEntries(EVALS_V1_GATES.map(({ gate }) => [gate, gates[gate] ?? null])) as EvalsV1Section['gates'],
      fail_on: [...(raw.ci?.failOn ?? [])],
      parallel_cases: raw.ci?.parallelCases ?? null,
      // Flow by flow, clients before scenarios (indexes compared as numbers).
      not_run: notRun.sort((a, b) => a.where.localeCompare(b.where, 'en', { numeric: true }))
    }
  }
  return {
    suite,
    server: raw.server ? { data: raw.server, locate } : null,
    defaults: { timeoutMs: raw.defaults?.timeoutMs ?? null, maxAgentSteps: raw.defaults?.maxAgentSteps ?? null, parallelCases: raw.ci?.parallelCases ?? null }
  }
}
