import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js'
import { isAlias, isCollection, isMap, isPair, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml'
import schema from '../../schema/eval-cases.schema.json' with { type: 'json' }
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { nearest } from '../util/suggest.js'
import { firstLine } from '../util/text.js'
import { Inputs } from '../constants.js'
import { ConfigError, ConfigErrors } from './errors.js'
import { normaliseToolTests, type RawToolTest } from './tool-tests.js'
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
}

const validateSuite = new Ajv2020({ allErrors: true, strict: false }).compile(schema)

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
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false })
  const at = (offset: number | undefined, path?: string): ConfigError['where'] => {
    const pos = offset === undefined ? undefined : lineCounter.linePos(offset)
    return { file, line: pos?.line, column: pos?.col, path }
  }

  if (doc.errors.length > 0) {
    throw new ConfigErrors(doc.errors.map((e) => new ConfigError(`invalid YAML: ${yamlProblem(e.message)}`, at(e.pos[0]))))
  }
  const deep = tooDeep(doc)
  if (deep) throw new ConfigError(`nested deeper than ${MAX_YAML_DEPTH} levels (no suite needs more)`, at(deep.range?.[0]))
  let data: unknown
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
  } catch (error) {
    // The yaml package stops an alias bomb (aliases of aliases that expand exponentially) with a ReferenceError.
    if (!(error instanceof ReferenceError)) throw error
    throw new ConfigError(
      `too many aliases: they expand to more than ${MAX_ALIAS_COUNT} copies of an anchor (an alias bomb); write the values out or use fewer aliases`,
      at(amplifyingAlias(doc)?.range?.[0])
    )
  }
  if (!validateSuite(data)) {
    const errors = relevantErrors(validateSuite.errors ?? []).map((e) => schemaError(e, doc, at))
    throw new ConfigErrors(dedupe(errors))
  }
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
  const judgeModel = firstNonEmpty(overrides.judgeModel, overrides.envJudgeModel) ?? raw.judge_model ?? DEFAULT_JUDGE_MODEL
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
      inputs: inputsOf(c, casePath, report, locate)
    }
  })
  // One `attacks:` entry stands for a case per payload: its mistake is said once.
  if (problems.length > 0) throw new ConfigErrors(dedupe(problems))

  return {
    source: file,
    judge_model: judgeModel,
    models: pickModels(overrides, yamlModels?.ids),
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
    tool_error_patterns: toolErrorPatterns
  }
}

/** How many times one anchor may be expanded (the yaml package's maxAliasCount). */
export const MAX_ALIAS_COUNT = 100
/** How deep maps and lists may nest: a suite needs about ten levels; the checks after parsing recurse. */
export const MAX_YAML_DEPTH = 64

/** The parser's own message, first line; its stack running out on deep nesting says so in words. */
function yamlProblem(message: string): string {
  return /Maximum call stack size exceeded/.test(message) ? `nested too deeply to parse (more than ${MAX_YAML_DEPTH} levels is never a suite)` : firstLine(message)
}

/** The first node nested deeper than MAX_YAML_DEPTH, found without recursion. */
function tooDeep(doc: Document): Node | undefined {
  const stack: [unknown, number][] = [[doc.contents, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (!isCollection(node)) continue
    if (depth > MAX_YAML_DEPTH) return node
    for (const item of node.items as unknown[]) {
      if (isPair(item)) stack.push([item.key, depth + 1], [item.value, depth + 1])
      else stack.push([item, depth + 1])
    }
  }
  return undefined
}

/** Where an alias bomb amplifies: the first alias of an anchor that itself holds aliases (else the first alias). */
function amplifyingAlias(doc: Document): Node | undefined {
  const aliases: { alias: Node; source: string }[] = []
  const anchored = new Map<string, Node>()
  const stack: unknown[] = [doc.contents]
  while (stack.length > 0) {
    const node = stack.pop()
    if (isAlias(node)) aliases.push({ alias: node, source: node.source })
    else if (isScalar(node) || isCollection(node)) {
      if (node.anchor) anchored.set(node.anchor, node)
      if (isCollection(node)) for (const item of node.items as unknown[]) stack.push(...(isPair(item) ? [item.key, item.value] : [item]))
    }
  }
  const holdsAlias = (node: Node | undefined) => isCollection(node) && (node.items as unknown[]).some((i) => isAlias(i) || (isPair(i) && isAlias(i.value)))
  aliases.sort((a, b) => (a.alias.range?.[0] ?? 0) - (b.alias.range?.[0] ?? 0))
  return (aliases.find((a) => holdsAlias(anchored.get(a.source))) ?? aliases[0])?.alias
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

/**
 * eval-action: a non-empty EVAL_MODELS is split on commas, trimmed, empties dropped ("," means zero
 * models); a model named twice there (or in the models input) runs once.
 */
function pickModels(overrides: SuiteOverrides, fromYaml: string[] | undefined): string[] {
  const list = firstNonEmpty(overrides.models, overrides.envModels)
  if (list !== undefined) {
    return [
      ...new Set(
        list
          .split(/[,\n]/)
          .map((m) => m.trim())
          .filter((m) => m.length > 0)
      )
    ]
  }
  return fromYaml ?? [DEFAULT_MODEL]
}

function firstNonEmpty(...values: (string | undefined)[]): string | undefined {
  return values.find((v) => v !== undefined && v.trim() !== '')?.trim()
}

/** oneOf failures repeat every branch's errors; keep the ones that point deepest and drop the summary. */
function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const withoutSummaries = oneMissingKeyOfEach(errors).filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'if')
  const byPath = new Map<string, ErrorObject[]>()
  for (const e of withoutSummaries) {
    const list = byPath.get(e.instancePath) ?? []
    list.push(e)
    byPath.set(e.instancePath, list)
  }
  const out: ErrorObject[] = []
  for (const [path, list] of byPath) {
    // At a oneOf (string | map) the "type" complaints of the other branch are noise when a
    // more specific complaint exists at the same place, or inside the value (the map branch
    // matched its type and went wrong deeper: `{ id: x, vision: maybe }` is no "must be string").
    const specific = list.filter((e) => e.keyword !== 'type')
    const deeper = [...byPath.keys()].some((other) => other.startsWith(`${path}/`))
    if (specific.length === 0 && deeper) continue
    out.push(...(specific.length > 0 ? specific : list.slice(0, 1)))
  }
  return out
}

/**
 * An anyOf of `required` branches (a suite needs cases, tool_tests or attacks; a case needs prompt,
 * turns or simulated_user) reads as one missing key, not a complaint per branch: the first
 * branch's key, with the others as `alternatives`.
 */
function oneMissingKeyOfEach(errors: ErrorObject[]): ErrorObject[] {
  let out = errors
  for (const group of errors.filter((e) => e.keyword === 'anyOf')) {
    const branches = errors.filter((e) => e.instancePath === group.instancePath && e.schemaPath.startsWith(`${group.schemaPath}/`))
    if (branches.length === 0 || !branches.every((e) => e.keyword === 'required')) continue
    const [first, ...alternatives] = branches.map((e) => String((e.params as { missingProperty: string }).missingProperty))
    out = out.filter((e) => e !== group && !branches.includes(e))
    out.push({ ...group, keyword: 'required', params: { missingProperty: first, alternatives }, message: `must have one of ${[first, ...alternatives].join(', ')}` })
  }
  return out
}

/** The keys of which a case gives exactly one. */
const CASE_FORMS = ['prompt', 'turns', 'simulated_user']

function schemaError(
  error: ErrorObject,
  doc: Document,
  at: (offset: number | undefined, path?: string) => ConfigError['where']
): ConfigError {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p))
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty)
      const known = Object.keys(knownKeysAt(path))
      const hint = nearest(key, known)
      const message = `unknown key '${key}'` + (hint ? ` (did you mean '${hint}'?)` : `; known keys: ${known.join(', ')}`)
      return new ConfigError(message, at(keyOffset(doc, path, key), dotted([...path, key])))
    }
    case 'required': {
      const { missingProperty: missing, alternatives } = error.params as { missingProperty: string; alternatives?: string[] }
      const either = alternatives === undefined ? '' : path.length === 0 ? " (or 'tool_tests' for a suite of tool tests alone)" : ` (or ${alternatives.map((k) => `'${k}'`).join(', or ')})`
      // A simulated user's dialogue has nothing else to judge it.
      const why = missing === 'rubric' && isCasePath(path) && doc.hasIn([...path, 'simulated_user']) ? ' (a simulated_user conversation is judged by its rubric alone)' : ''
      return new ConfigError(`missing required key '${missing}'${either}${why}`, at(nodeOffset(doc, path), dotted(path)))
    }
    case 'not': {
      if (!isCasePath(path)) break
      // As written: the second one is where the case went wrong.
      const node = doc.getIn(path, true)
      const given = isMap(node) ? node.items.map((p) => (isScalar(p.key) ? String(p.key.value) : '')).filter((key) => CASE_FORMS.includes(key)) : []
      const which = given.length > 2 ? 'all three' : `both ${given.map((k) => `'${k}'`).join(' and ')}`
      const key = given[1] ?? CASE_FORMS[0]
      return new ConfigError(`give one of ${CASE_FORMS.map((k) => `'${k}'`).join(', ')}, not ${which}`, at(keyOffset(doc, path, key), dotted([...path, key])))
    }
    case 'dependentRequired': {
      const { property, missingProperty } = error.params as { property: string; missingProperty: string }
      return new ConfigError(`missing required key '${missingProperty}' (needed by ${property})`, at(nodeOffset(doc, path), dotted(path)))
    }
  }
  return new ConfigError(describe(error), at(nodeOffset(doc, path), dotted(path)))
}

function isCasePath(path: (string | number)[]): boolean {
  return path.length === 2 && path[0] === 'cases'
}

function describe(error: ErrorObject): string {
  if (/\/cases\/\d+\/sampling$/.test(error.instancePath) && (error.keyword === 'type' || error.keyword === 'enum')) return 'must be agent or { text: "…" }'
  if (/^\/models\/\d+$/.test(error.instancePath) && error.keyword === 'type') return 'must be a model id or { id: "…", vision: true|false }'
  if (error.keyword === 'type') return `must be ${(error.params as { type: string | string[] }).type.toString().replaceAll(',', ' or ')}`
  if (error.keyword === 'pattern' && /\/(rubric|goal|persona|user)$/.test(error.instancePath)) return 'must not be empty'
  if (error.keyword === 'anyOf' && /\/elicitation\/\d+\/content\/[^/]+$/.test(error.instancePath)) return FORM_VALUE
  if (error.keyword === 'enum') return `${error.message ?? 'invalid value'} (${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`
  return error.message ?? 'invalid value'
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
  if (path[0] === 'budgets' && path.length === 1) return defs.budgets.properties ?? {}
  if (path[0] === 'budgets' && path[1] === 'tools' && path.length === 3) return defs.toolBudget.properties ?? {}
  if (path[0] === 'pricing' && path.length === 2) return defs.modelPricing.properties ?? {}
  return {}
}

function nodeOffset(doc: Document, path: (string | number)[]): number | undefined {
  const node = (path.length === 0 ? doc.contents : doc.getIn(path, true)) as Node | undefined
  return node?.range?.[0]
}

function keyOffset(doc: Document, path: (string | number)[], key: string): number | undefined {
  const parent = path.length === 0 ? doc.contents : doc.getIn(path, true)
  if (isMap(parent)) {
    const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === key)
    if (pair && isScalar(pair.key)) return pair.key.range?.[0]
  }
  return nodeOffset(doc, path)
}

function dotted(path: (string | number)[]): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '') || '(top level)'
}

function dedupe(errors: ConfigError[]): ConfigError[] {
  const seen = new Set<string>()
  return errors.filter((e) => (seen.has(e.message) ? false : (seen.add(e.message), true)))
}
