import type { ValidateFunction } from 'ajv'
import schema from '../../schema/evals-v1.schema.json' with { type: 'json' }
import { validate as generatedValidator } from './evals-v1-validator.generated.js'
import { ConfigError, ConfigErrors } from './errors.js'
import { isObject } from '../util/objects.js'
import type { EvalsV1Context } from '../results/evals-v1.js'
import type { EvalsV1Assertion, Json } from './types.js'
import { dotted, keyOffset, parseYamlFile, schemaErrors, type ParsedYaml, type SchemaDialect, type YamlPath } from './yaml-document.js'

// An evals/v1 suite (`apiVersion: mcp-use.com/evals/v1`) as its YAML holds it, validated against
// schema/evals-v1.schema.json: the shapes the translation reads.

export const EVALS_V1_API_VERSION = 'mcp-use.com/evals/v1'

export interface RawV1Server {
  url?: string
  command?: string
  args?: string[]
  env?: Record<string, string>
}

export interface RawV1Client {
  target: 'mcp-use' | 'inspector' | 'chatgpt' | 'ai-sdk' | 'claude-agent-sdk'
  framework?: string
  models?: string[]
  disallowedTools?: string[]
  runOn?: EvalsV1Context[]
}

export interface RawV1Check {
  id: string
  /** The schema has exactly one of tool, resource, mcp; args only with tool. */
  call: { tool?: string; resource?: string; mcp?: 'listTools' | 'listResources' | 'listPrompts'; args?: Record<string, Json> }
  assert: EvalsV1Assertion[]
}

export interface RawV1Turn {
  user: string
  expect?: {
    tools?: { name: string; args?: Record<string, Json>; afterTurn?: number }[]
    result?: { tool: string; assert: EvalsV1Assertion[] }
    widget?: { fields?: Record<string, Json>; screenshot?: { rubric: string; threshold?: number; tool?: string; args?: Record<string, Json> } }
  }
}

export interface RawV1Scenario {
  id: string
  tags?: string[]
  turns: RawV1Turn[]
  expect?: { judge?: { rubric: string; threshold?: number; screenshot?: boolean }; tools?: { forbidden?: string[] } }
}

export interface RawV1Flow {
  id: string
  type: 'agent'
  clients?: RawV1Client[]
  systemPrompts?: Record<string, string>
  checks?: RawV1Check[]
  scenarios: RawV1Scenario[]
}

export interface RawV1Suite {
  apiVersion: typeof EVALS_V1_API_VERSION
  kind: 'EvalSuite'
  name: string
  intent?: string
  triggers?: Json
  server?: RawV1Server
  defaults?: { timeoutMs?: number; maxAgentSteps?: number; judgeModel?: string; rubricThreshold?: number; client?: string }
  metrics?: { collect?: string[]; report?: string; gates?: { toolErrorRateMax?: number; agentStepsP95Max?: number; tokensPerSuccessP95Max?: number } }
  ci?: { failOn?: string[]; parallelCases?: boolean }
  flows: RawV1Flow[]
}

/** Compiled on first use: a run of eval_cases.yaml never pays for it. */
// Ajv's code for the schema, generated at build time (scripts/build-schema-validators.mjs).
const validate = generatedValidator as ValidateFunction

/** Parse evals/v1 YAML text and validate it against the schema. Throws ConfigError(s) naming file, line, column and path. */
export function parseRawV1Suite(text: string, file: string): { raw: RawV1Suite; parsed: ParsedYaml } {
  const parsed = parseYamlFile(text, file)
  // Not this format at all (eval_cases.yaml given as eval_suite): one error, not one per key.
  if (isObject(parsed.data) && parsed.data.apiVersion === undefined && parsed.data.kind === undefined) {
    throw new ConfigError(`is not an evals/v1 suite: it has no apiVersion: ${EVALS_V1_API_VERSION} (and no kind: EvalSuite); an eval_cases.yaml is given as eval_cases`, parsed.locate([]))
  }
  if (!validate(parsed.data)) throw new ConfigErrors(schemaErrors(validate.errors ?? [], parsed, EVALS_V1_DIALECT))
  return { raw: parsed.data as RawV1Suite, parsed }
}

/** How an evals/v1 suite's schema errors read. */
const EVALS_V1_DIALECT: SchemaDialect = {
  knownKeysAt: (path) => propertiesAt(path),
  explain(error, path, doc, at) {
    if (error.keyword !== 'dependentRequired' || !isCallPath(path)) return undefined
    return new ConfigError("'args' goes with 'tool' only: a resource read and a list take no arguments", at(keyOffset(doc, path, 'args'), dotted([...path, 'args'])))
  },
  exclusiveKeys: (path) => (isCallPath(path) ? CALL_TARGETS : undefined),
  alternativesHint: (path, alternatives) => (isCallPath(path) ? ` (or ${alternatives.map((k) => `'${k}'`).join(', or ')}): a check calls a tool, reads a resource or lists` : ` (or ${alternatives.map((k) => `'${k}'`).join(', or ')})`),
  describe(error) {
    if (error.keyword === 'const') return `must be ${String((error.params as { allowedValue: unknown }).allowedValue)}`
    if (error.keyword === 'minItems' && /\/turns$/.test(error.instancePath)) return 'must have at least one turn'
    if (error.keyword === 'minItems' && error.instancePath === '/flows') return 'must have at least one flow'
    if (error.keyword === 'type' && /\/args\/[^/]+$/.test(error.instancePath) && /\/turns\//.test(error.instancePath)) {
      return 'must be a string, number, boolean, "any", {any: true, requirePresent: true}, {contains}, {pattern} or an object to equal'
    }
    return undefined
  }
}

const CALL_TARGETS = ['tool', 'resource', 'mcp']

function isCallPath(path: YamlPath): boolean {
  return path.length === 5 && path[0] === 'flows' && path[2] === 'checks' && path[4] === 'call'
}

type SchemaNode = { properties?: Record<string, SchemaNode>; items?: SchemaNode; additionalProperties?: SchemaNode | boolean; $ref?: string }

/** The properties the schema allows at an instance path, found by walking the schema (for "did you mean"). */
export function propertiesAt(path: YamlPath): Record<string, unknown> {
  const defs = (schema as { $defs: Record<string, SchemaNode> }).$defs
  const deref = (node: SchemaNode | undefined): SchemaNode | undefined => (node?.$ref ? defs[node.$ref.replace('#/$defs/', '')] : node)
  let node: SchemaNode | undefined = schema as SchemaNode
  for (const step of path) {
    node = deref(node)
    if (node === undefined) return {}
    if (typeof step === 'number') node = node.items
    else node = node.properties?.[step] ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined)
  }
  return deref(node)?.properties ?? {}
}
