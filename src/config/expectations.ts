import { compileMatcherPattern } from '../util/matcher-pattern.js'
import { isObject } from '../util/objects.js'
import type { GoldenExpectations, Json, ToolRequirement } from './types.js'

/** Where a YAML value is: keys and list indexes from the document's root. */
export type YamlPath = (string | number)[]

/** Records a problem at a path of the YAML; loading goes on so every problem is said at once. */
export type Report = (message: string, path: YamlPath) => void

/** One `required_tools` entry as the YAML has it: a tool name, or `{ name, args }`. */
export type RawRequirement = string | { name: string; args?: Record<string, Json> | null }

const GOLDEN_KEYS = ['expect_tool', 'expect_args', 'arg_match', 'expect_sequence', 'sequence', 'forbidden_tools', 'max_tool_calls'] as const

/** The golden-set keys a case (or a turn) sets, checked for what the schema cannot say; null when it sets none. */
export function goldenOf(c: GoldenExpectations, at: YamlPath, report: Report): GoldenExpectations | null {
  const golden: GoldenExpectations = {}
  for (const key of GOLDEN_KEYS) if (c[key] !== undefined) Object.assign(golden, { [key]: c[key] })
  if (Object.keys(golden).length === 0) return null
  if (golden.expect_args && golden.expect_tool === null) report('expect_args needs an expected tool, but expect_tool is null', [...at, 'expect_args'])
  for (const [arg, mode] of Object.entries(golden.arg_match ?? {})) {
    if (!golden.expect_args || !Object.hasOwn(golden.expect_args, arg)) report(`arg_match names '${arg}', which expect_args does not have`, [...at, 'arg_match', arg])
    else if (mode === 'pattern') {
      const problem = patternProblem(String(golden.expect_args[arg]))
      if (problem) report(problem, [...at, 'expect_args', arg])
    }
  }
  return golden
}

/** A case's (or a turn's) `required_tools`, normalised; an argument's `{ pattern }` that does not compile is reported. */
export function requiredToolsOf(entries: RawRequirement[] | null | undefined, at: YamlPath, report: Report): ToolRequirement[] {
  return (entries ?? []).map((entry, j) => {
    const requirement = normaliseRequirement(entry)
    for (const [key, expected] of Object.entries(requirement.args ?? {})) {
      const pattern = patternOf(expected)
      const problem = pattern === undefined ? null : patternProblem(pattern)
      if (problem) report(problem, [...at, 'required_tools', j, 'args', key, 'pattern'])
    }
    return requirement
  })
}

function normaliseRequirement(entry: RawRequirement): ToolRequirement {
  if (typeof entry === 'string') return { name: entry }
  const args = entry.args ?? undefined
  return args && Object.keys(args).length > 0 ? { name: entry.name, args } : { name: entry.name }
}

function patternOf(expected: Json): string | undefined {
  if (!isObject(expected)) return undefined
  if ('contains' in expected) return undefined
  return typeof expected.pattern === 'string' ? expected.pattern : undefined
}

/** A regular expression the YAML gives (case-insensitive, Python spellings allowed), or the reason it does not compile. */
export function patternProblem(pattern: string): string | null {
  try {
    compileMatcherPattern(pattern)
    return null
  } catch (error) {
    return `invalid regular expression: ${(error as Error).message}`
  }
}
