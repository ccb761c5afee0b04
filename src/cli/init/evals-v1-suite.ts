import { EVALS_V1_API_VERSION } from '../../config/evals-v1-raw.js'
import { LOCAL_TARGET } from '../../results/evals-v1.js'
import { Document, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml'
import { DEFAULT_JUDGE_MODEL, DEFAULT_MODEL } from '../../config/types.js'
import type { McpTool } from '../../mcp/session.js'
import { countPlaceholders, draftArguments } from './arguments.js'
import { argumentsNode, comment, NEGATIVE_DRAFTS, toolRubric, destructiveTools, draftPrompt, flowSeq, Ids, key, map, noCallLines, safeToCall, splitOffered, unofferedLines, type SuiteCounts } from './suite.js'

/** The evals/v1 `server` block, and what of the server config it cannot hold. */
export interface V1Server {
  block: Record<string, unknown>
  /** Keys of the server config with no place in the block (`headers`, `cwd`, `roots`, …): the workflow passes server_config then. */
  leftOut: string[]
}

/** The server config as written (placeholders kept) as an evals/v1 server block. */
export function serverBlockOf(json: Record<string, unknown>): V1Server {
  const wrapped = json.mcpServers
  const server = (wrapped && typeof wrapped === 'object' && !Array.isArray(wrapped) ? Object.values(wrapped)[0] : json) as Record<string, unknown>
  const fits = typeof server.url === 'string' ? ['url'] : ['command', 'args', 'env']
  const block = Object.fromEntries(fits.filter((k) => server[k] !== undefined).map((k) => [k, server[k]]))
  return { block, leftOut: Object.keys(server).filter((k) => !fits.includes(k)) }
}

/**
 * A starting evals/v1 suite for a server's tools, as a YAML document with comments: the same
 * drafts as the eval_cases suite of buildSuite. A check per tool that is safe to call (read-only),
 * a scenario per tool the model is offered, negative scenarios, and the server block.
 */
export function buildEvalsV1Suite(tools: McpTool[], server: V1Server, name: string, schemaRef: string): { doc: Document; counts: SuiteCounts } {
  const doc = new Document({})
  const root = doc.contents as YAMLMap
  const ids = new Ids()
  let todos = 0
  doc.commentBefore = [
    ` yaml-language-server: $schema=${schemaRef}`,
    " An evals/v1 suite (eval-action's newer format) written by MCP Server Evals' `init --format evals-v1`",
    ' from the tools the server listed. Edit every line marked TODO: the placeholder arguments, and the',
    ' drafted prompts and rubrics. checks call tools directly, with no model and no key (run them alone',
    ' with --only-tool-tests); scenarios give a real model the prompt and the tools, and a judge scores the answer.'
  ].join('\n')
  const set = (m: YAMLMap, k: string | Scalar, v: unknown) => m.items.push(new Pair(typeof k === 'string' ? new Scalar(k) : k, v instanceof YAMLMap || v instanceof YAMLSeq || v instanceof Scalar ? v : doc.createNode(v)))
  set(root, 'apiVersion', EVALS_V1_API_VERSION)
  set(root, 'kind', 'EvalSuite')
  set(root, 'name', name)
  const serverNode = doc.createNode(server.block) as YAMLMap
  const serverKey = key('server', server.leftOut.length > 0 ? ` TODO: ${server.leftOut.join(', ')} of the server config have no place here: the workflow passes server_config too` : undefined, true)
  set(root, serverKey, serverNode)
  set(root, key('defaults', undefined, true), map(doc, [['judgeModel', DEFAULT_JUDGE_MODEL]]))

  const flow = new YAMLMap()
  set(flow, 'id', 'main')
  set(flow, 'type', 'agent')
  set(flow, 'clients', doc.createNode([{ target: LOCAL_TARGET, models: [DEFAULT_MODEL] }]))
  set(flow, 'systemPrompts', map(doc, [['default', 'You are a helpful assistant.\nUse the available tools to answer; never invent what a tool did not return.\n']]))

  const safe = tools.filter(safeToCall)
  const untested = tools.filter((t) => !safe.includes(t)).map((t) => t.name)
  const destructive = destructiveTools(tools)
  const checks = new YAMLSeq()
  if (safe.length === 0) checks.flow = true
  for (const tool of safe) {
    const fields = draftArguments(tool.inputSchema ?? {})
    todos += countPlaceholders(fields)
    const rules: unknown[] = [{ kind: 'executionError', equals: false }]
    if (tool.outputSchema !== undefined) rules.push({ kind: 'outputSchemaValid' })
    const asserts = doc.createNode(rules) as YAMLSeq
    for (const item of asserts.items) (item as YAMLMap).flow = true
    checks.items.push(
      map(doc, [
        ['id', ids.take('call', tool.name)],
        ['call', map(doc, [['tool', tool.name], ['args', argumentsNode(doc, fields, false)]])],
        ['assert', asserts]
      ])
    )
  }
  const checksComment = [
    ' Checks: one direct call of each tool marked read-only (readOnlyHint: true), expecting no error',
    ' (and, for a tool with an outputSchema, structuredContent that satisfies it).',
    ' Add jsonpath, equals, contains, pattern, schema or resource rules once you know what the tool returns.'
  ]
  checksComment.push(...noCallLines(tools, 'check'))
  set(flow, key('checks', checksComment.join('\n'), true), checks)

  const scenarios = new YAMLSeq()
  const { offered, unoffered } = splitOffered(tools)
  for (const tool of offered) {
    const fields = draftArguments(tool.inputSchema ?? {})
    const id = new Scalar(ids.take('use', tool.name))
    id.comment = comment(destructive.includes(tool.name) ? 'TODO: review (this scenario lets a model call a destructive tool: point the server at test data)' : 'TODO: review')
    todos++
    scenarios.items.push(
      map(doc, [
        ['id', id],
        ['turns', doc.createNode([{ user: draftPrompt(tool, fields), expect: { tools: [{ name: tool.name }] } }])],
        ['expect', map(doc, [['judge', map(doc, [['rubric', toolRubric(tool.name)], ['threshold', 0.7]])]])]
      ])
    )
  }
  // evals/v1 has no "no tool at all": a negative scenario forbids every tool.
  const names = tools.map((t) => t.name)
  const negative = ({ slug, prompt: user, rubric }: { slug: string; prompt: string; rubric: string }, forbidden: string[]) =>
    map(doc, [
      ['id', ids.take('no-tool', slug)],
      ['tags', flowSeq(doc, ['negative'])],
      ['turns', doc.createNode([{ user }])],
      ['expect', map(doc, [['judge', map(doc, [['rubric', rubric], ['threshold', 0.7]])], ['tools', map(doc, [['forbidden', flowSeq(doc, forbidden)]])]])]
    ])
  const negatives = [
    negative(NEGATIVE_DRAFTS.smallTalk, names),
    negative(NEGATIVE_DRAFTS.unknowable, names)
  ]
  if (destructive.length > 0) {
    negatives.push(
      negative(NEGATIVE_DRAFTS.whenOnlyAsking, destructive)
    )
  }
  if (negatives.length > 0 && names.length > 0) {
    negatives[0].commentBefore = ' Negative scenarios: no tool should be called (every tool forbidden), or no destructive one.'
    scenarios.items.push(...negatives)
  }
  const scenariosComment = [' Scenarios: a drafted request per tool (from its description) and a rubric for the judge; rewrite them as real requests.', ...unofferedLines(tools, 'scenario')]
  set(flow, key('scenarios', scenariosComment.join('\n'), true), scenarios)
  const flows = new YAMLSeq()
  flows.items.push(flow)
  set(root, key('flows', undefined, true), flows)
  const negativeCount = names.length > 0 ? negatives.length : 0
  return { doc, counts: { toolTests: safe.length, cases: scenarios.items.length, negativeCases: negativeCount, todos, untested, unoffered, destructive } }
}
