import type { Json, ToolTest, ToolTestExpect, ToolTestStep } from './types.js'
import { compileMatcherPattern } from '../util/matcher-pattern.js'
import { CAPTURE_NAME, malformedPlaceholders, referencedCaptures } from './placeholders.js'
import { compileSchema } from '../util/json-schema.js'
import { pathProblem } from '../util/jsonpath.js'
import { matcherProblem } from './json-matcher.js'
import { normaliseAppTest, type RawAppTest } from './app-test.js'

/** A tool test as the YAML holds it (already valid against the JSON Schema). */
export interface RawToolTest {
  id: string
  tool?: string
  args?: Record<string, Json> | null
  expect?: RawExpect
  capture?: Record<string, string>
  /** MCP Apps: render the tool's app for this call and check it (the single-call form). */
  app?: RawAppTest
  steps?: { tool: string; args?: Record<string, Json> | null; expect?: RawExpect; capture?: Record<string, string>; app?: RawAppTest }[]
  runs?: number
  tags?: string[]
}

type RawExpect = Omit<ToolTestExpect, 'contains' | 'snapshot'> & { contains?: string | string[]; snapshot?: boolean | { ignore?: string[] } }

/** Reports a problem at a path of the YAML document. */
export type ProblemSink = (message: string, path: (string | number)[]) => void

/**
 * The suite's tool tests, normalised (the single-call form becomes one step) and checked for
 * what the JSON Schema cannot say: unique ids, JSONPaths that parse (RFC 9535), matchers and
 * patterns that compile, schemas that compile, and every `${name}` captured by an earlier step.
 */
export function normaliseToolTests(raw: RawToolTest[], problem: ProblemSink): ToolTest[] {
  // Ids name snapshot files: two that differ only in case share one on a case-insensitive disk.
  const seen = new Map<string, number>()
  return raw.map((test, i) => {
    const earlier = seen.get(test.id.toLowerCase())
    if (earlier !== undefined) {
      const same = raw[earlier].id === test.id ? '' : ` as '${raw[earlier].id}', ignoring case, since ids name snapshot files`
      problem(`duplicate tool test id '${test.id}' (first used by tool_tests[${earlier}]${same})`, ['tool_tests', i, 'id'])
    } else seen.set(test.id.toLowerCase(), i)
    if (/\.step-\d+$/i.test(test.id)) problem(`a tool test id must not end in .step-N: that names the snapshot of a step of another test`, ['tool_tests', i, 'id'])
    const single = test.steps === undefined
    const rawSteps = single ? [{ tool: test.tool as string, args: test.args, expect: test.expect, capture: test.capture, app: test.app }] : (test.steps ?? [])
    const captured = new Set<string>()
    const steps = rawSteps.map((step, j): ToolTestStep => {
      const at = (...rest: (string | number)[]) => (single ? ['tool_tests', i, ...rest] : ['tool_tests', i, 'steps', j, ...rest])
      const args = step.args ?? {}
      for (const text of malformedPlaceholders(args)) problem(`'${text}' has a \${ that is not a placeholder: write \${name} (letters, digits, _ and -), or $\${ for a literal \${`, at('args'))
      for (const name of referencedCaptures(args)) {
        if (!captured.has(name)) {
          const hint = single ? 'a single-call test captures nothing; use steps' : captured.size ? `earlier steps capture ${[...captured].join(', ')}` : 'no earlier step captures anything'
          problem(`\${${name}} is not captured by an earlier step (${hint}); write $\${ for a literal \${`, at('args'))
        }
      }
      const capture = step.capture ?? {}
      for (const [name, path] of Object.entries(capture)) {
        if (!CAPTURE_NAME.test(name)) problem(`capture name '${name}' cannot be used as \${${name}}: use letters, digits, _ and - (starting with a letter or _)`, at('capture', name))
        checkPath(path, at('capture', name), problem)
        captured.add(name)
      }
      const app = step.app === undefined ? {} : { app: normaliseAppTest(step.app, at('app'), problem) }
      return { tool: step.tool, args, expect: normaliseExpect(step.expect ?? {}, at, problem), capture, ...app }
    })
    return { id: test.id, steps, runs: test.runs ?? 1, tags: test.tags ?? [] }
  })
}

function normaliseExpect(raw: RawExpect, at: (...rest: (string | number)[]) => (string | number)[], problem: ProblemSink): ToolTestExpect {
  const expect: ToolTestExpect = {}
  if (raw.is_error !== undefined) expect.is_error = raw.is_error
  if (raw.contains !== undefined) expect.contains = typeof raw.contains === 'string' ? [raw.contains] : raw.contains
  if (raw.pattern !== undefined) {
    expect.pattern = raw.pattern
    try {
      compileMatcherPattern(raw.pattern)
    } catch (error) {
      problem(`invalid regular expression: ${(error as Error).message}`, at('expect', 'pattern'))
    }
  }
  if (raw.json !== undefined) {
    expect.json = raw.json
    for (const [path, matcher] of Object.entries(raw.json)) {
      checkPath(path, at('expect', 'json', path), problem)
      const trouble = matcherProblem(matcher)
      if (trouble) problem(trouble, at('expect', 'json', path))
    }
  }
  if (raw.schema !== undefined) {
    expect.schema = raw.schema
    const trouble = schemaProblem(raw.schema)
    if (trouble) problem(trouble, at('expect', 'schema'))
  }
  if (raw.max_ms !== undefined) expect.max_ms = raw.max_ms
  if (raw.snapshot !== undefined && raw.snapshot !== false) {
    const ignore = raw.snapshot === true ? [] : (raw.snapshot.ignore ?? [])
    ignore.forEach((path, k) => checkPath(path, at('expect', 'snapshot', 'ignore', k), problem))
    expect.snapshot = { ignore }
  }
  return expect
}

function checkPath(path: string, where: (string | number)[], problem: ProblemSink): void {
  const trouble = pathProblem(path)
  if (trouble) problem(`${trouble} (RFC 9535)`, where)
}

/** Why a schema cannot be used (for the loader to check `expect.schema` before any run); undefined when it compiles. */
export function schemaProblem(schema: Json): string | undefined {
  const result = compileSchema(schema)
  return 'problem' in result ? result.problem : undefined
}
