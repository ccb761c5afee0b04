/**
 * The shape of an evals/v1 suite (suite.v1.ts's rules, with unknown keys as errors), checked on
 * the parsed YAML: each problem with its path. A's JSON Schema (schema/evals-v1.schema.json) is
 * the published form of the same rules.
 */
import type { Path } from './notes.js'

type Spec =
  | 'string'
  | 'number'
  | 'boolean'
  | 'any'
  | { obj: Record<string, Spec>; required?: string[] }
  | { arr: Spec; min?: number }
  | { record: Spec }
  | { oneOf: string[] }
  | { lazy: () => Spec }

const strings: Spec = { arr: 'string' }
const strRecord: Spec = { record: 'string' }
const assertion: Spec = {
  obj: {
    kind: { oneOf: ['executionError', 'outputSchemaValid', 'jsonpath', 'equals', 'contains', 'pattern', 'schema', 'resource', 'widget'] },
    path: 'string',
    equals: 'any',
    contains: 'string',
    pattern: 'string',
    type: 'string',
    uri: 'string',
    schema: 'any',
    fields: { record: 'any' },
    assert: { arr: { lazy: () => assertion } }
  },
  required: ['kind']
}
const asserts: Spec = { arr: assertion }
const args: Spec = { record: 'any' }

const SUITE: Spec = {
  obj: {
    apiVersion: { oneOf: ['mcp-use.com/evals/v1'] },
    kind: { oneOf: ['EvalSuite'] },
    name: 'string',
    intent: 'string',
    triggers: {
      obj: {
        manual: 'boolean',
        ci: { obj: { enabled: 'boolean', branches: strings, watchPaths: strings } },
        cron: { obj: { enabled: 'boolean', schedule: 'string', branch: 'string' } }
      }
    },
    server: { obj: { url: 'string', command: 'string', args: strings, env: strRecord } },
    defaults: { obj: { timeoutMs: 'number', maxAgentSteps: 'number', judgeModel: 'string', rubricThreshold: 'number', client: 'string' } },
    metrics: { obj: { collect: strings, report: 'string', gates: { obj: { toolErrorRateMax: 'number', agentStepsP95Max: 'number', tokensPerSuccessP95Max: 'number' } } } },
    ci: { obj: { failOn: strings, parallelCases: 'boolean' } },
    flows: {
      min: 1,
      arr: {
        required: ['id', 'type', 'scenarios'],
        obj: {
          id: 'string',
          type: { oneOf: ['agent'] },
          clients: {
            arr: {
              required: ['target'],
              obj: {
                target: { oneOf: ['mcp-use', 'inspector', 'chatgpt', 'ai-sdk', 'claude-agent-sdk'] },
                framework: 'string',
                models: strings,
                disallowedTools: strings,
                runOn: { arr: { oneOf: ['ci', 'manual', 'release', 'cron'] } }
              }
            }
          },
          systemPrompts: strRecord,
          checks: {
            arr: {
              required: ['id', 'call', 'assert'],
              obj: { id: 'string', call: { obj: { tool: 'string', resource: 'string', mcp: { oneOf: ['listTools', 'listResources', 'listPrompts'] }, args } }, assert: asserts }
            }
          },
          scenarios: {
            arr: {
              required: ['id', 'turns'],
              obj: {
                id: 'string',
                tags: strings,
                turns: {
                  arr: {
                    required: ['user'],
                    obj: {
                      user: 'string',
                      expect: {
                        obj: {
                          tools: { arr: { required: ['name'], obj: { name: 'string', args, afterTurn: 'number' } } },
                          result: { required: ['tool', 'assert'], obj: { tool: 'string', assert: asserts } },
                          widget: {
                            obj: {
                              fields: { record: 'any' },
                              screenshot: { required: ['rubric'], obj: { rubric: 'string', threshold: 'number', tool: 'string', args } }
                            }
                          }
                        }
                      }
                    }
                  }
                },
                expect: {
                  obj: {
                    judge: { required: ['rubric'], obj: { rubric: 'string', threshold: 'number', screenshot: 'boolean' } },
                    tools: { obj: { forbidden: strings } }
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  required: ['apiVersion', 'kind', 'name', 'flows']
}

export interface ShapeProblem {
  path: Path
  message: string
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : `a ${typeof v}`)

/** Every place where `value` breaks the evals/v1 rules (empty when it keeps them). */
export function v1ShapeProblems(value: unknown): ShapeProblem[] {
  const problems: ShapeProblem[] = []
  check(value, SUITE, [], problems)
  // A check calls exactly one thing.
  if (problems.length === 0) {
    const flows = (value as { flows: { checks?: { call: Record<string, unknown> }[] }[] }).flows
    flows.forEach((flow, f) =>
      (flow.checks ?? []).forEach((c, i) => {
        const given = ['tool', 'resource', 'mcp'].filter((k) => c.call[k] !== undefined)
        if (given.length !== 1) problems.push({ path: ['flows', f, 'checks', i, 'call'], message: `give exactly one of 'tool', 'resource', 'mcp'${given.length ? ` (got ${given.join(', ')})` : ''}` })
      })
    )
  }
  return problems
}

function check(value: unknown, spec: Spec, path: Path, problems: ShapeProblem[]): void {
  const fail = (message: string): void => {
    problems.push({ path, message })
  }
  if (spec === 'any') return
  if (spec === 'string' || spec === 'number' || spec === 'boolean') {
    if (typeof value !== spec || (spec === 'number' && !Number.isFinite(value))) fail(`expected a ${spec}, got ${typeName(value)}`)
    return
  }
  if ('lazy' in spec) return check(value, spec.lazy(), path, problems)
  if ('oneOf' in spec) {
    if (typeof value !== 'string' || !spec.oneOf.includes(value)) fail(`expected ${spec.oneOf.map((v) => JSON.stringify(v)).join(' or ')}, got ${JSON.stringify(value) ?? typeName(value)}`)
    return
  }
  if ('arr' in spec) {
    if (!Array.isArray(value)) return fail(`expected a list, got ${typeName(value)}`)
    if (spec.min !== undefined && value.length < spec.min) fail(`expected at least ${spec.min} item${spec.min === 1 ? '' : 's'}`)
    value.forEach((item, i) => check(item, spec.arr, [...path, i], problems))
    return
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(`expected a mapping, got ${typeName(value)}`)
  const entries = Object.entries(value as Record<string, unknown>)
  if ('record' in spec) {
    for (const [k, v] of entries) check(v, spec.record, [...path, k], problems)
    return
  }
  for (const key of spec.required ?? []) if (!(key in value)) fail(`missing required key '${key}'`)
  for (const [k, v] of entries) {
    const sub = spec.obj[k]
    if (sub === undefined) problems.push({ path: [...path, k], message: `unknown key '${k}'` })
    else check(v, sub, [...path, k], problems)
  }
}
