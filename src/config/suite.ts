import { readFileSync } from 'node:fs'
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js'
import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml'
import schema from '../../schema/eval-cases.schema.json' with { type: 'json' }
import { nearest } from '../util/suggest.js'
import { firstLine } from '../util/text.js'
import { ConfigError, ConfigErrors } from './errors.js'
import { normaliseToolTests, type RawToolTest } from './tool-tests.js'
import { expandAttack, normaliseResilience, type RawAttack, type RawResilience } from './resilience.js'
import { budgetsOf, pricingOf, type RawBudgets } from './budgets.js'
import { compileMatcherPattern } from '../scoring/tool-assertions.js'
import {
  DEFAULT_JUDGE_MODEL,
  DEFAULT_MODEL,
  DEFAULT_THRESHOLD,
  type EvalCase,
  type GoldenExpectations,
  type Json,
  type Pricing,
  type Suite,
  type ToolRequirement
} from './types.js'

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
}

const validateSuite = new Ajv2020({ allErrors: true, strict: false }).compile(schema)

interface RawSuite {
  judge_model?: string
  models?: string[]
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
    prompt: string
    rubric: string
    threshold?: number
    required_tools?: (string | { name: string; args?: Record<string, Json> | null })[] | null
    runs?: number
    kind?: 'hard' | 'soft'
    tags?: string[]
  } & GoldenExpectations &
    RawResilience)[]
}

type RawCase = NonNullable<RawSuite['cases']>[number]

export function loadSuiteFile(path: string, overrides: SuiteOverrides = {}): Suite {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ConfigError(`cannot read eval cases file: ${(error as Error).message}`, { file: path, input: 'eval_cases' })
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
    throw new ConfigErrors(doc.errors.map((e) => new ConfigError(`invalid YAML: ${firstLine(e.message)}`, at(e.pos[0]))))
  }
  const data = doc.toJS({ maxAliasCount: 100 }) as unknown
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
  const cases: EvalCase[] = rawCases.map(({ c, path: casePath }) => ({
    id: c.id,
    prompt: c.prompt,
    rubric: c.rubric.trim(),
    threshold: c.threshold ?? DEFAULT_THRESHOLD,
    required_tools: (c.required_tools ?? []).map((entry, j) => {
      const requirement = normaliseRequirement(entry)
      for (const [key, expected] of Object.entries(requirement.args ?? {})) {
        const pattern = patternOf(expected)
        if (pattern === undefined) continue
        try {
          compileMatcherPattern(pattern)
        } catch (error) {
          const path = [...casePath, 'required_tools', j, 'args', key, 'pattern']
          problems.push(new ConfigError(`invalid regular expression: ${(error as Error).message}`, at(nodeOffset(doc, path), dotted(path))))
        }
      }
      return requirement
    }),
    golden: goldenOf(c, casePath, report),
    runs: c.runs ?? raw.runs ?? 1,
    kind: c.kind ?? 'soft',
    tags: c.tags ?? [],
    resilience: normaliseResilience(c, casePath, report, overrides)
  }))
  // One `attacks:` entry stands for a case per payload: its mistake is said once.
  if (problems.length > 0) throw new ConfigErrors(dedupe(problems))

  return {
    source: file,
    judge_model: firstNonEmpty(overrides.judgeModel, overrides.envJudgeModel) ?? raw.judge_model ?? DEFAULT_JUDGE_MODEL,
    models: pickModels(overrides, raw.models),
    system_prompts: Object.entries(raw.system_prompts ?? {}).map(([name, text]) => ({ name, text })),
    cases,
    tool_tests: toolTests,
    pass_floors: { hard: raw.pass_floor_hard ?? 1, soft: raw.pass_floor_soft ?? 0.8 },
    resilience_floors: { min_recovery_rate: raw.min_recovery_rate ?? null, min_attack_resistance: raw.min_attack_resistance ?? null },
    budgets: budgetsOf(raw.budgets),
    pricing: pricingOf(raw.pricing)
  }
}

/** eval-action: a non-empty EVAL_MODELS is split on commas, trimmed, empties dropped ("," means zero models). */
function pickModels(overrides: SuiteOverrides, fromYaml: string[] | undefined): string[] {
  const list = firstNonEmpty(overrides.models, overrides.envModels)
  if (list !== undefined) {
    return list
      .split(/[,\n]/)
      .map((m) => m.trim())
      .filter((m) => m.length > 0)
  }
  return fromYaml ?? [DEFAULT_MODEL]
}

const GOLDEN_KEYS = ['expect_tool', 'expect_args', 'arg_match', 'expect_sequence', 'sequence', 'forbidden_tools', 'max_tool_calls'] as const

/** The golden-set keys a case sets, checked for what the schema cannot say. */
function goldenOf(c: GoldenExpectations, at: (string | number)[], problem: (message: string, path: (string | number)[]) => void): GoldenExpectations | null {
  const golden: GoldenExpectations = {}
  for (const key of GOLDEN_KEYS) if (c[key] !== undefined) Object.assign(golden, { [key]: c[key] })
  if (Object.keys(golden).length === 0) return null
  if (golden.expect_args && golden.expect_tool === null) problem('expect_args needs an expected tool, but expect_tool is null', [...at, 'expect_args'])
  for (const [arg, mode] of Object.entries(golden.arg_match ?? {})) {
    if (!golden.expect_args || !Object.hasOwn(golden.expect_args, arg)) problem(`arg_match names '${arg}', which expect_args does not have`, [...at, 'arg_match', arg])
    else if (mode === 'pattern') {
      try {
        compileMatcherPattern(String(golden.expect_args[arg]))
      } catch (error) {
        problem(`invalid regular expression: ${(error as Error).message}`, [...at, 'expect_args', arg])
      }
    }
  }
  return golden
}

function firstNonEmpty(...values: (string | undefined)[]): string | undefined {
  return values.find((v) => v !== undefined && v.trim() !== '')?.trim()
}

function normaliseRequirement(entry: string | { name: string; args?: Record<string, Json> | null }): ToolRequirement {
  if (typeof entry === 'string') return { name: entry }
  const args = entry.args ?? undefined
  return args && Object.keys(args).length > 0 ? { name: entry.name, args } : { name: entry.name }
}

function patternOf(expected: Json): string | undefined {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return undefined
  if ('contains' in expected) return undefined
  return typeof expected.pattern === 'string' ? expected.pattern : undefined
}

/** oneOf failures repeat every branch's errors; keep the ones that point deepest and drop the summary. */
function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  // The root's anyOf (cases or tool_tests) reads as one missing key, not three complaints.
  const neither = errors.some((e) => e.keyword === 'anyOf' && e.instancePath === '' && e.schemaPath === '#/anyOf')
  const withoutSummaries = errors
    .filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'if' && !(neither && e.instancePath === '' && (e.keyword === 'anyOf' || (e.keyword === 'required' && e.schemaPath.startsWith('#/anyOf')))))
    .concat(neither ? [{ keyword: 'required', instancePath: '', schemaPath: '#/anyOf', params: { missingProperty: 'cases' }, message: 'or tool_tests' } as ErrorObject] : [])
  const byPath = new Map<string, ErrorObject[]>()
  for (const e of withoutSummaries) {
    const list = byPath.get(e.instancePath) ?? []
    list.push(e)
    byPath.set(e.instancePath, list)
  }
  const out: ErrorObject[] = []
  for (const list of byPath.values()) {
    // At a oneOf (string | map) the "type" complaints of the other branch are noise when a
    // more specific complaint exists at the same place.
    const specific = list.filter((e) => e.keyword !== 'type')
    out.push(...(specific.length > 0 ? specific : list.slice(0, 1)))
  }
  return out
}

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
      const missing = String((error.params as { missingProperty: string }).missingProperty)
      const either = error.schemaPath === '#/anyOf' ? " (or 'tool_tests' for a suite of tool tests alone)" : ''
      return new ConfigError(`missing required key '${missing}'${either}`, at(nodeOffset(doc, path), dotted(path)))
    }
    case 'dependentRequired': {
      const { property, missingProperty } = error.params as { property: string; missingProperty: string }
      return new ConfigError(`missing required key '${missingProperty}' (needed by ${property})`, at(nodeOffset(doc, path), dotted(path)))
    }
    default:
      return new ConfigError(describe(error), at(nodeOffset(doc, path), dotted(path)))
  }
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'type') return `must be ${(error.params as { type: string | string[] }).type.toString().replace(',', ' or ')}`
  if (error.keyword === 'pattern' && error.instancePath.endsWith('/rubric')) return 'must not be empty'
  return error.message ?? 'invalid value'
}

/** The properties allowed at a path, read from the schema, for "did you mean". */
function knownKeysAt(path: (string | number)[]): Record<string, unknown> {
  const defs = schema.$defs as Record<string, { properties?: Record<string, unknown>; oneOf?: { properties?: Record<string, unknown> }[] }>
  if (path.length === 0) return schema.properties
  if (path[0] === 'cases' && path.length === 2) return defs.case.properties ?? {}
  if (path[0] === 'attacks' && path.length === 2) return defs.attackShorthand.properties ?? {}
  if (path[0] === 'cases' && path[2] === 'faults' && path.length === 4) return defs.fault.properties ?? {}
  if (path[0] === 'cases' && path[2] === 'inject' && path.length === 4) return defs.inject.properties ?? {}
  if (path[0] === 'cases' && path[2] === 'required_tools' && path.length === 4) return defs.toolRequirement.oneOf?.[1].properties ?? {}
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
