import type { EvalsV1Assertion } from '../results/suite.js'
import { evalsV1PathProblem, fromResultPath } from '../util/evals-v1-paths.js'
import { compileSchema } from '../util/json-schema.js'
import { patternProblem } from './expectations.js'
import { isObject } from '../util/objects.js'

export interface AssertionProblem {
  message: string
  /** Where in the suite, as the loader's paths go (`flows`, 0, `checks`, 2, `assert`, 1, `pattern`). */
  path: (string | number)[]
}

/** `jsonpath`'s `type` names (evals/v1 names `number` only; the others are ours). */
export const EVALS_V1_TYPE_NAMES = ['number', 'integer', 'string', 'boolean', 'object', 'array', 'null'] as const

/** The fields each kind reads besides `kind`; any other is a mistake (it would be ignored). */
const FIELDS: Record<EvalsV1Assertion['kind'], readonly string[]> = {
  executionError: ['equals'],
  outputSchemaValid: [],
  jsonpath: ['path', 'equals', 'type'],
  equals: ['path', 'equals'],
  contains: ['path', 'contains'],
  pattern: ['path', 'pattern'],
  schema: ['path', 'schema'],
  resource: ['uri', 'assert'],
  widget: ['fields']
}
const RULE_FIELDS = ['kind', 'path', 'equals', 'contains', 'pattern', 'type', 'uri', 'schema', 'fields', 'assert']

/**
 * What is wrong with one evals/v1 `assert[]` rule, found when the suite is loaded so that no run
 * starts on a rule that cannot pass or cannot fail: paths must parse (RFC 9535, upstream's
 * spellings taken), patterns compile on RE2, schemas compile, each kind's fields are there and of
 * the right type, fields the kind does not read are not given; a `resource` rule's nested rules
 * are checked the same way. `at` is where the rule is; each problem's path extends it.
 */
export function assertionProblems(rule: EvalsV1Assertion, at: (string | number)[]): AssertionProblem[] {
  const problems: AssertionProblem[] = []
  const add = (message: string, ...where: (string | number)[]) => problems.push({ message, path: [...at, ...where] })
  if (!isObject(rule)) {
    add('an assertion is a mapping with a kind')
    return problems
  }
  const kind = rule.kind
  if (typeof kind !== 'string' || !Object.hasOwn(FIELDS, kind)) {
    add(`unknown assertion kind ${JSON.stringify(kind)}: one of ${Object.keys(FIELDS).join(', ')}`, 'kind')
    return problems
  }
  const reads = FIELDS[kind]
  for (const key of Object.keys(rule)) {
    if (key === 'kind' || reads.includes(key) || (rule as unknown as Record<string, unknown>)[key] === undefined) continue
    add(RULE_FIELDS.includes(key) ? `${kind} does not read ${key} (it would be ignored)` : `unknown key ${key}`, key)
  }
  if (rule.path !== undefined && reads.includes('path')) {
    const problem = typeof rule.path === 'string' ? evalsV1PathProblem(rule.path) : 'path must be a string'
    if (problem) add(problem, 'path')
  }
  switch (kind) {
    case 'executionError':
      if (rule.equals !== undefined && typeof rule.equals !== 'boolean') add('executionError takes equals: true (the call must fail, the default) or false', 'equals')
      break
    case 'jsonpath':
      if (rule.type !== undefined && !(EVALS_V1_TYPE_NAMES as readonly unknown[]).includes(rule.type)) add(`type must be one of ${EVALS_V1_TYPE_NAMES.join(', ')}`, 'type')
      break
    case 'equals':
      if (rule.equals === undefined) add('equals needs the value to compare with (equals: …)')
      break
    case 'contains':
      if (typeof rule.contains !== 'string') add('contains needs the text to look for (contains: …)', ...(rule.contains === undefined ? [] : ['contains']))
      else if (rule.contains === '') add('contains is empty: it would match any value', 'contains')
      break
    case 'pattern':
      if (typeof rule.pattern !== 'string') add('pattern needs a regular expression (pattern: …)', ...(rule.pattern === undefined ? [] : ['pattern']))
      else {
        const problem = patternProblem(rule.pattern)
        if (problem) add(problem, 'pattern')
      }
      break
    case 'schema': {
      if (rule.schema === undefined) add('schema needs the JSON Schema the value must satisfy (schema: …)')
      else {
        const compiled = compileSchema(rule.schema)
        if ('problem' in compiled) add(compiled.problem, 'schema')
      }
      break
    }
    case 'resource':
      resourceProblems(rule, at, add, problems)
      break
    case 'widget':
      if (!isObject(rule.fields)) add('widget needs the fields to compare (fields: {name: value})', ...(rule.fields === undefined ? [] : ['fields']))
      else if (Object.keys(rule.fields).length === 0) add('fields is empty: there is nothing to compare', 'fields')
      break
  }
  return problems
}

function resourceProblems(rule: EvalsV1Assertion, at: (string | number)[], add: (message: string, ...where: (string | number)[]) => void, problems: AssertionProblem[]): void {
  if (typeof rule.uri !== 'string' || rule.uri === '') add('resource needs the uri to read (a URI, or ${fromResult:<path>})', ...(rule.uri === undefined ? [] : ['uri']))
  else {
    const path = fromResultPath(rule.uri)
    const problem = path === undefined ? undefined : evalsV1PathProblem(path)
    if (problem) add(`in ${rule.uri}: ${problem}`, 'uri')
  }
  if (rule.assert === undefined) return
  if (!Array.isArray(rule.assert)) {
    add('assert must be a list of assertions', 'assert')
    return
  }
  rule.assert.forEach((nested, i) => problems.push(...assertionProblems(nested, [...at, 'assert', i])))
}
