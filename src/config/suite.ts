import { judgeModelOverride, modelsOverride } from './model-overrides.js'
import type { ErrorObject, ValidateFunction } from 'ajv'
import schema from '../../schema/eval-cases.schema.json' with { type: 'json' }
import { validate as generatedValidator } from './eval-cases-validator.generated.js'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { Inputs } from '../constants.js'
import { ConfigError, ConfigErrors } from './errors.js'
import { dedupe, dotted, keyOffset, nodeOffset, parseYamlFile, schemaErrors, type SchemaDialect } from './yaml-document.js'
import { normaliseToolTests, type RawToolTest } from './tool-tests.js'
import { appsSettingsOf, type RawAppsSettings } from './app-test.js'
import { expandAttack, normaliseResilience, type RawAttack, type RawResilience } from './resilience.js'
import { budgetsOf, pricingOf, type RawBudgets } from './budgets.js'
import { goldenOf, patternProblem, requiredToolsOf, type RawRequirement, type Report } from './expectations.js'
import { conversationOf, type RawConversation } from './conversation.js'
import { FORM_VALUE, inputsOf, type RawInputs } from './inputs.js'
import { DEFAULT_JUDGE_MODEL, DEFAULT_MAX_TOOL_RESULT_CHARS, DEFAULT_MODEL, DEFAULT_THRESHOLD, type EvalCase, type GoldenExpectations, type Pricing, type Suite } from './types.js'

/** Model choices that win over the YAML, highest priority first (inputs, then environment). */
export interface SuiteOverrides {
  models?: string
  judgeModel?: string
  envModels?: string
  envJudgeModel?: string
  /** The server's transport, when known: faults that only exist over HTTP are refused on stdio. */
  transport?: 'stdio' | 'http'
  /** timeout_seconds, when known: a fault that waits longer than a run may last would only time the run out. */
  timeoutSeconds?: number
  /** The max_tool_result_chars input (or flag): a number wins over the YAML's; null or absent: not given. */
  maxToolResultChars?: number | null
  /** The app_visual_diff input (or flag): wins over the default of the suite's apps settings; absent: not given. */
  appVisualDiff?: 'review' | 'fail'
}

// Ajv's code for the schema, generated at build time (scripts/build-schema-validators.mjs): no
// schema is compiled on the way to the first server spawn.
const validateSuite = generatedValidator as ValidateFunction

interface RawSuite {
  judge_model?: string
  user_model?: string
  models?: RawModelEntry[]
  vision_models?: string[]
  max_tool_result_chars?: number
  tool_error_patterns?: string[]
  runs?: number
  pass_floor_hard?: number
  pass_floor_soft?: number
  system_prompts?: Record<string, string>
  tool_tests?: RawToolTest[]
  attacks?: RawAttack[]
  min_recovery_rate?: number
  min_attack_resistance?: number
  budgets?: RawBudgets
  pricing?: Pricing
  apps?: RawAppsSettings
  cases?: ({
    id: string
    /** The schema has exactly one of prompt, turns, simulated_user, and rubric unless turns. */
    prompt?: string
    rubric?: string
    threshold?: number
    required_tools?: RawRequirement[] | null
    runs?: number
    kind?: 'hard' | 'soft'
    tags?: string[]
    apps?: 'render' | 'off'
  } & GoldenExpectations &
    RawResilience &
    RawConversation &
    RawInputs)[]
}

type RawCase = NonNullable<RawSuite['cases']>[number]

export function loadSuiteFile(path: string, overrides: SuiteOverrides = {}): Suite {
  let text: string
  try {
    // A regular file under FileLimits.suite: a device, a FIFO or a 50 MB file is refused before it is parsed.
    text = readBoundedFile(path, FileLimits.suite)
  } catch (error) {
    throw new ConfigError(`cannot read eval cases file: ${(error as Error).message}`, { file: path, input: Inputs.EvalCases })
  }
  return parseSuite(text, path, overrides)
}

/** Parse and validate eval_cases.yaml text. Every problem names file, line, column and path. */
export function parseSuite(text: string, file: string, overrides: SuiteOverrides = {}): Suite {
  const parsed = parseYamlFile(text, file)
  const { doc, data, at } = parsed
  if (!validateSuite(data)) throw new ConfigErrors(schemaErrors(validateSuite.errors ?? [], parsed, EVAL_CASES_DIALECT))
  const raw = data as unknown as RawSuite
  const problems: ConfigError[] = []

  // Each case with where the YAML has it: `attacks:` entries stand for one case per payload.
  const rawCases: { c: RawCase; path: (string | number)[] }[] = [
    ...(raw.cases ?? []).map((c, i) => ({ c, path: ['cases', i] })),
    ...(raw.attacks ?? []).flatMap((a, k) => expandAttack(a).map((c) => ({ c: c as RawCase, path: ['attacks', k] })))
  ]
  const seen = new Map<string, string>()
  rawCases.forEach(({ c, path }) => {
    const earlier = seen.get(c.id)
    const idPath = path[0] === 'cases' ? [...path, 'id'] : path
    if (earlier !== undefined) {
      problems.push(new ConfigError(`duplicate case id '${c.id}' (first used by ${earlier})`, at(nodeOffset(doc, idPath), dotted(idPath))))
    } else {
      seen.set(c.id, dotted(path))
    }
  })

  const report = (message: string, written: (string | number)[]) => {
    // An `attacks:` entry is written flat (its `position`, `attack`): an error about the inject
    // it stands for points at the entry's own key.
    const path = written[0] === 'attacks' && written[2] === 'inject' ? [...written.slice(0, 2), ...written.slice(4)] : written
    problems.push(new ConfigError(message, at(nodeOffset(doc, path), dotted(path))))
  }
  const toolTests = normaliseToolTests(raw.tool_tests ?? [], report)
  const yamlModels = modelsOf(raw.models, report)
  const visionPatterns = patternsOf(raw.vision_models, 'vision_models', report)
  const toolErrorPatterns = patternsOf(raw.tool_error_patterns, 'tool_error_patterns', report)
  const judgeModel = judgeModelOverride(overrides) ?? raw.judge_model ?? DEFAULT_JUDGE_MODEL
  const locate = (path: (string | number)[]) => at(nodeOffset(doc, path), dotted(path))
  const cases: EvalCase[] = rawCases.map(({ c, path: casePath }) => {
    const threshold = c.threshold ?? DEFAULT_THRESHOLD
    return {
      id: c.id,
      prompt: c.prompt ?? c.turns?.[0].user ?? c.simulated_user?.goal.trim() ?? '',
      rubric: (c.rubric ?? '').trim(),
      threshold,
      required_tools: requiredToolsOf(c.required_tools, casePath, report),
      golden: goldenOf(c, casePath, report),
      runs: c.runs ?? raw.runs ?? 1,
      kind: c.kind ?? 'soft',
      tags: c.tags ?? [],
      resilience: normaliseResilience(c, casePath, report, overrides),
      conversation: conversationOf(c, casePath, report, { threshold, userModel: raw.user_model ?? judgeModel }),
      inputs: inputsOf(c, casePath, report, locate),
      ...(c.apps !== undefined ? { apps: c.apps } : {})
    }
  })
  // One `attacks:` entry stands for a case per payload: its mistake is said once.
  if (problems.length > 0) throw new ConfigErrors(dedupe(problems))

  return {
    source: file,
    judge_model: judgeModel,
    models: modelsOverride(overrides) ?? yamlModels?.ids ?? [DEFAULT_MODEL],
    system_prompts: Object.entries(raw.system_prompts ?? {}).map(([name, text]) => ({ name, text })),
    cases,
    tool_tests: toolTests,
    pass_floors: { hard: raw.pass_floor_hard ?? 1, soft: raw.pass_floor_soft ?? 0.8 },
    resilience_floors: { min_recovery_rate: raw.min_recovery_rate ?? null, min_attack_resistance: raw.min_attack_resistance ?? null },
    budgets: budgetsOf(raw.budgets),
    pricing: pricingOf(raw.pricing),
    max_tool_result_chars: typeof overrides.maxToolResultChars === 'number' ? overrides.maxToolResultChars : (raw.max_tool_result_chars ?? DEFAULT_MAX_TOOL_RESULT_CHARS),
    // A model's vision: applies by id, also when the models input or EVAL_MODELS replaces the list.
    vision: { models: yamlModels?.vision ?? {}, patterns: visionPatterns },
    tool_error_patterns: toolErrorPatterns,
    apps: appsSettingsOf(raw.apps, overrides.appVisualDiff)
  }
}

/** One `models:` entry as the YAML has it: a model id, or `{ id, vision }`. */
type RawModelEntry = string | { id: string; vision?: boolean }

/**
 * The `models:` list: the ids in order, and each entry's `vision:` by id; undefined when the YAML
 * has no list. An id given twice is reported (its runs would be planned twice).
 */
function modelsOf(entries: RawModelEntry[] | undefined, report: Report): { ids: string[]; vision: Record<string, boolean> } | undefined {
  if (entries === undefined) return undefined
  const vision: Record<string, boolean> = {}
  const first = new Map<string, number>()
  const ids = entries.map((entry, i) => {
    const object = typeof entry !== 'string'
    const id = object ? entry.id : entry
    const earlier = first.get(id)
    if (earlier === undefined) first.set(id, i)
    // Twice the same id would plan the same runs twice (their results would overwrite each other).
    else report(`duplicate model id '${id}' (first given at models[${earlier}])`, object ? ['models', i, 'id'] : ['models', i])
    if (object && entry.vision !== undefined) vision[id] = entry.vision
    return id
  })
  return { ids, vision }
}

/** A top-level list of regular expressions (`vision_models`, `tool_error_patterns`), each checked to compile. */
function patternsOf(patterns: string[] | undefined, key: string, report: Report): string[] {
  const list = patterns ?? []
  list.forEach((pattern, i) => {
    const problem = patternProblem(pattern)
    if (problem) report(problem, [key, i])
  })
  return [...list]
}

/** The keys of which a case gives exactly one. */
const CASE_FORMS = ['prompt', 'turns', 'simulated_user']

/** What eval_cases.yaml's errors say beyond the generic reading. */
const EVAL_CASES_DIALECT: SchemaDialect = {
  knownKeysAt,
  exclusiveKeys: (path) => (isCasePath(path) ? CASE_FORMS : isActionPath(path) ? ['click', 'fill'] : undefined),
  alternativesHint: (path, alternatives) => (path.length === 0 ? " (or 'tool_tests' for a suite of tool tests alone)" : ` (or ${alternatives.map((k) => `'${k}'`).join(', or ')})`),
  explain(error, path, doc, at) {
    if (error.keyword === 'dependentRequired' && isActionPath(path) && (error.params as { property: string }).property === 'value') {
      return new ConfigError("'value' is the text fill types: it goes with fill, not click", at(keyOffset(doc, path, 'value'), dotted([...path, 'value'])))
    }
    if (error.keyword !== 'required') return undefined
    const { missingProperty: missing, alternatives } = error.params as { missingProperty: string; alternatives?: string[] }
    const neededBy = keyNeedingIt(error.schemaPath)
    if (neededBy) return new ConfigError(`missing required key '${missing}' (needed by ${neededBy})`, at(nodeOffset(doc, path), dotted(path)))
    // A simulated user's dialogue has nothing else to judge it.
    if (alternatives !== undefined || missing !== 'rubric' || !isCasePath(path) || !doc.hasIn([...path, 'simulated_user'])) return undefined
    return new ConfigError(`missing required key '${missing}' (a simulated_user conversation is judged by its rubric alone)`, at(nodeOffset(doc, path), dotted(path)))
  },
  describe
}

/**
 * The top-level list whose entries need the missing key (`#/allOf/0/then/required`: the schema's
 * `if` names it), else undefined. Only a list with entries does: `cases: []` runs nothing.
 */
function keyNeedingIt(schemaPath: string): string | undefined {
  const match = /^#\/allOf\/(\d+)\/then\/required$/.exec(schemaPath)
  return match ? (schema.allOf[Number(match[1])]?.if.required[0] ?? undefined) : undefined
}

function isCasePath(path: (string | number)[]): boolean {
  return path.length === 2 && path[0] === 'cases'
}

/** A tool test's (or step's) `app.actions[k]`. */
function isActionPath(path: (string | number)[]): boolean {
  return path[0] === 'tool_tests' && path.at(-3) === 'app' && path.at(-2) === 'actions'
}

function describe(error: ErrorObject): string | undefined {
  if (/\/cases\/\d+\/sampling$/.test(error.instancePath) && (error.keyword === 'type' || error.keyword === 'enum')) return 'must be agent or { text: "…" }'
  if (/^\/models\/\d+$/.test(error.instancePath) && error.keyword === 'type') return 'must be a model id or { id: "…", vision: true|false }'
  if (error.keyword === 'pattern' && /\/(rubric|goal|persona|user)$|\/app\/judge$/.test(error.instancePath)) return 'must not be empty'
  if (error.keyword === 'const' && /\/app$/.test(error.instancePath)) return 'must be true (render and check the host findings) or a map of actions and checks'
  if (error.keyword === 'anyOf' && /\/elicitation\/\d+\/content\/[^/]+$/.test(error.instancePath)) return FORM_VALUE
  return undefined
}

/** The properties allowed at a path, read from the schema, for "did you mean". */
function knownKeysAt(path: (string | number)[]): Record<string, unknown> {
  const defs = schema.$defs as Record<string, { properties?: Record<string, unknown>; oneOf?: { properties?: Record<string, unknown> }[] }>
  if (path.length === 0) return schema.properties
  if (path[0] === 'models' && path.length === 2) return (schema.$defs.modelEntry.oneOf[1] as { properties?: Record<string, unknown> }).properties ?? {}
  if (path[0] === 'cases' && path.length === 2) return defs.case.properties ?? {}
  if (path[0] === 'attacks' && path.length === 2) return defs.attackShorthand.properties ?? {}
  if (path[0] === 'cases' && path[2] === 'faults' && path.length === 4) return defs.fault.properties ?? {}
  if (path[0] === 'cases' && path[2] === 'inject' && path.length === 4) return defs.inject.properties ?? {}
  if (path[0] === 'cases' && path[2] === 'required_tools' && path.length === 4) return defs.toolRequirement.oneOf?.[1].properties ?? {}
  if (path[0] === 'cases' && path[2] === 'turns' && path.length === 4) return defs.turn.properties ?? {}
  if (path[0] === 'cases' && path[2] === 'turns' && path[4] === 'required_tools' && path.length === 6) return defs.toolRequirement.oneOf?.[1].properties ?? {}
  if (path[0] === 'cases' && path[2] === 'simulated_user' && path.length === 3) return defs.simulatedUser.properties ?? {}
  if (path[0] === 'cases' && path[2] === 'elicitation' && path.length === 4) return defs.elicitationRule.properties ?? {}
  if (path[0] === 'cases' && path[2] === 'sampling' && path.length === 3) return defs.samplingText.properties ?? {}
  if (path[0] === 'tool_tests' && path.length === 2) return defs.toolTest.properties ?? {}
  if (path[0] === 'tool_tests' && path[2] === 'steps' && path.length === 4) return defs.toolTestStep.properties ?? {}
  if (path[0] === 'tool_tests' && path.at(-1) === 'expect') return defs.toolTestExpect.properties ?? {}
  if (path[0] === 'tool_tests' && path.at(-1) === 'app') return schema.$defs.appTest.else.properties
  if (path[0] === 'tool_tests' && path.at(-2) === 'app' && path.at(-1) === 'judge') return defs.appJudge.oneOf?.[1].properties ?? {}
  if (path[0] === 'tool_tests' && path.includes('app') && (path.at(-1) === 'selector' || path.at(-2) === 'selector')) return defs.appSelectorCheck.properties ?? {}
  if (path[0] === 'tool_tests' && isActionPath(path)) return defs.appAction.properties ?? {}
  if (path[0] === 'apps' && path.length === 1) return schema.$defs.appsSettings.else.properties
  if (path[0] === 'budgets' && path.length === 1) return defs.budgets.properties ?? {}
  if (path[0] === 'budgets' && path[1] === 'tools' && path.length === 3) return defs.toolBudget.properties ?? {}
  if (path[0] === 'pricing' && path.length === 2) return defs.modelPricing.properties ?? {}
  return {}
}
