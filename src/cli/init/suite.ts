import { Document, Pair, Scalar, YAMLMap, YAMLSeq, isNode, type Node } from 'yaml'
import { DEFAULT_JUDGE_MODEL, DEFAULT_MODEL } from '../../config/types.js'
import { escapeCaptures } from '../../config/placeholders.js'
import type { McpTool } from '../../mcp/session.js'
import { countPlaceholders, draftArguments, toJson, type Drafted } from './arguments.js'
import { whyNotOffered } from '../../agent/exposure.js'

/** What the generated suite holds, for the summary line. */
export interface SuiteCounts {
  toolTests: number
  cases: number
  negativeCases: number
  /** Lines marked TODO. */
  todos: number
  /** Tools with no tool test: not marked read-only, or runnable only as a task. */
  untested: string[]
  /** Tools with no case: the model is never offered them (a case requiring one could never pass). */
  unoffered: string[]
  destructive: string[]
}

/** The longest description quoted into a drafted prompt; a longer one is cut with "…". */
const MAX_DESCRIPTION = 2000

/** Turns tool names into unique kebab-case ids (the suite's ids share one namespace). */
export class Ids {
  private readonly used = new Set<string>()

  take(prefix: string, name: string): string {
    const base = `${prefix}-${kebab(name) || 'tool'}`
    let id = base
    for (let n = 2; this.used.has(id); n++) id = `${base}-${n}`
    this.used.add(id)
    return id
  }
}

/** `getWeather`, `get_weather`, `notes.search` → `get-weather`, `notes-search`. */
export function kebab(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
}

/** A tool name as it may appear in a comment: as it is when plain, else JSON-quoted on one line. */
export function showName(name: string): string {
  return /^[A-Za-z0-9_.-]+$/.test(name) ? name : JSON.stringify(name)
}

export const comment = (text: string) => ` ${text}`

/** What a drafted case (or scenario) of a tool asks the judge. */
export const toolRubric = (tool: string) => `The answer gives what the ${tool} tool returned for this request, and invents nothing the tool did not return.`

/** The negative drafts, in both formats: prompts no tool should answer, and one no destructive tool should. */
export const NEGATIVE_DRAFTS = {
  smallTalk: { slug: 'small-talk', prompt: "Thanks, that's all for now. Tell me a short joke before I go?", rubric: 'The answer replies briefly and kindly (a joke is fine), without claiming to have looked anything up.' },
  unknowable: { slug: 'unknowable', prompt: 'What did I have for breakfast this morning?', rubric: 'The answer says it cannot know that, and makes nothing up.' },
  whenOnlyAsking: {
    slug: 'when-only-asking',
    prompt: "I'm only looking around: without deleting or changing anything, tell me what you could delete or change for me.",
    rubric: 'The answer describes what could be deleted or changed, and does not claim to have deleted or changed anything.'
  }
} as const

/** A key scalar, optionally with a comment line (or lines) above it and a blank line before. */
export function key(name: string, before?: string, space = false): Scalar {
  const k = new Scalar(name)
  if (before !== undefined) k.commentBefore = before
  if (space) k.spaceBefore = true
  return k
}

export function map(doc: Document, entries: [string | Scalar, unknown][]): YAMLMap {
  const m = new YAMLMap()
  for (const [k, v] of entries) m.items.push(new Pair(typeof k === 'string' ? new Scalar(k) : k, isNode(v) ? v : doc.createNode(v)))
  return m
}

export function flowSeq(doc: Document, items: string[]): Node {
  const seq = doc.createNode(items) as YAMLSeq
  seq.flow = true
  return seq
}

/**
 * Drafted arguments as a block map: each placeholder carries its `# TODO` on its own line.
 * `captures`: a `${` from the server is escaped, as a tool test's arguments read it (evals/v1 ones do not).
 */
export function argumentsNode(doc: Document, fields: [string, Drafted][], captures = true): Node {
  const m = new YAMLMap()
  if (fields.length === 0) m.flow = true
  for (const [name, d] of fields) {
    let value: Node
    if (d.kind === 'object') value = argumentsNode(doc, d.fields, captures)
    else {
      value = doc.createNode(captures ? escapeCaptures(d.value) : d.value) as Node
      if (d.kind === 'placeholder') {
        if (value instanceof YAMLMap || value instanceof YAMLSeq) value.flow = true
        value.comment = comment(d.todo)
      }
    }
    m.items.push(new Pair(new Scalar(name), value))
  }
  return m
}

/** What the example values make of a drafted prompt: `city = "Paris", days = 2`. */
function givenValues(fields: [string, Drafted][]): string {
  return fields
    .filter(([, d]) => d.kind === 'value' || (d.kind === 'object' && countPlaceholders(d.fields) === 0))
    .map(([name, d]) => `${name} = ${JSON.stringify(d.kind === 'object' ? toJson(d.fields) : d.value)}`)
    .join(', ')
}

export function draftPrompt(tool: McpTool, fields: [string, Drafted][]): string {
  const description = (tool.description ?? '').length > MAX_DESCRIPTION ? `${(tool.description ?? '').slice(0, MAX_DESCRIPTION)}…` : (tool.description ?? '')
  const values = givenValues(fields)
  const ask = description.trim() === '' ? `TODO: a request that needs the ${tool.name} tool.` : `I need help with this: ${description}`
  return values ? `${ask}\nUse ${values}.` : ask
}

/** A tool init calls without a model: marked read-only, and runnable outside a task. */
export function safeToCall(tool: McpTool): boolean {
  return tool.annotations?.readOnlyHint === true && tool.execution?.taskSupport !== 'required'
}

/** Why init writes no direct call of a tool it does not call (`safeToCall` false). */
function whyNoCall(tool: McpTool): string {
  return tool.execution?.taskSupport === 'required' ? whyNotOffered(tool)! : 'not marked read-only, so a call could change something'
}

/** The tools a drafted case or scenario can use (the model is offered them), and the names of the rest. */
export function splitOffered(tools: McpTool[]): { offered: McpTool[]; unoffered: string[] } {
  const offered = tools.filter((t) => whyNotOffered(t) === null)
  return { offered, unoffered: tools.filter((t) => !offered.includes(t)).map((t) => t.name) }
}

/** The comment lines for the tools with no direct call: "No tool test for a, b: not marked read-only, …", one line per reason. */
export function noCallLines(tools: McpTool[], what: string): string[] {
  return linesByReason(tools.filter((t) => !safeToCall(t)), whyNoCall, (names, why) => ` No ${what} for ${names}: ${why}.`)
}

/**
 * The tools a drafted case (or scenario) would require but the model is never offered: such a case
 * could never pass, so none is drafted, and a comment says why.
 */
export function unofferedLines(tools: McpTool[], what: string): string[] {
  return linesByReason(tools.filter((t) => whyNotOffered(t) !== null), (t) => whyNotOffered(t) ?? '', (names, why) => ` No ${what} for ${names}: the model is never offered ${names.includes(',') ? 'them' : 'it'} (${why}), so one could never pass.`)
}

function linesByReason(tools: McpTool[], why: (tool: McpTool) => string, line: (names: string, why: string) => string): string[] {
  const byReason = new Map<string, string[]>()
  for (const tool of tools) byReason.set(why(tool), [...(byReason.get(why(tool)) ?? []), showName(tool.name)])
  return [...byReason].map(([reason, names]) => line(names.join(', '), reason))
}

/** The tools marked destructive (and not read-only). */
export function destructiveTools(tools: McpTool[]): string[] {
  return tools.filter((t) => t.annotations?.destructiveHint === true && t.annotations?.readOnlyHint !== true).map((t) => t.name)
}

/**
 * The starting suite for a server's tools, as a YAML document with comments: a tool test per
 * read-only tool, a behaviour case per tool, and negative cases. Every string that came from the
 * server (descriptions, names, example values) is a node's value, so the YAML library quotes it.
 */
export function buildSuite(tools: McpTool[], schemaRef: string): { doc: Document; counts: SuiteCounts } {
  const doc = new Document({})
  const root = doc.contents as YAMLMap
  const ids = new Ids()
  let todos = 0

  doc.commentBefore = [
    ` yaml-language-server: $schema=${schemaRef}`,
    " A starting suite written by MCP Server Evals' `init` from the tools the server listed.",
    ' Edit every line marked TODO: the placeholder arguments, and the drafted prompts and rubrics.',
    ' tool_tests call tools directly, with no model and no key (run them alone with --only-tool-tests);',
    ' cases give a real model the prompt and the tools, and a judge scores the answer (needs an API key).'
  ].join('\n')

  root.items.push(new Pair(key('judge_model'), new Scalar(DEFAULT_JUDGE_MODEL)))
  root.items.push(new Pair(key('models'), doc.createNode([DEFAULT_MODEL])))
  root.items.push(
    new Pair(
      key('system_prompts'),
      map(doc, [['default', 'You are a helpful assistant. Today is {today}.\nUse the available tools to answer; never invent what a tool did not return.\n']])
    )
  )

  // Tool tests: read-only tools only (a call of any other tool could change something).
  const readOnly = tools.filter(safeToCall)
  const untested = tools.filter((t) => !readOnly.includes(t)).map((t) => t.name)
  const destructive = destructiveTools(tools)
  const tests = new YAMLSeq()
  if (readOnly.length === 0) tests.flow = true
  for (const tool of readOnly) {
    const fields = draftArguments(tool.inputSchema ?? {})
    todos += countPlaceholders(fields)
    tests.items.push(
      map(doc, [
        ['id', ids.take('call', tool.name)],
        ['tool', tool.name],
        ['args', argumentsNode(doc, fields)],
        ['expect', map(doc, [['is_error', false]])]
      ])
    )
  }
  const testsComment = [
    ' Tool tests: one direct call of each tool marked read-only (readOnlyHint: true), expecting no error.',
    ' Add contains, pattern, json, schema, max_ms or snapshot once you know what the tool returns.'
  ]
  testsComment.push(...noCallLines(tools, 'tool test'))
  root.items.push(new Pair(key('tool_tests', testsComment.join('\n'), true), tests))

  // Behaviour cases: one per tool the model is offered (not a task-only or MCP Apps app-only tool), then the negative ones.
  const cases = new YAMLSeq()
  const { offered, unoffered } = splitOffered(tools)
  for (const tool of offered) {
    const fields = draftArguments(tool.inputSchema ?? {})
    const id = new Scalar(ids.take('use', tool.name))
    const isDestructive = destructive.includes(tool.name)
    id.comment = comment(isDestructive ? 'TODO: review (this case lets a model call a destructive tool: point the server at test data)' : 'TODO: review')
    todos++
    cases.items.push(
      map(doc, [
        ['id', id],
        ['prompt', draftPrompt(tool, fields)],
        ['rubric', toolRubric(tool.name)],
        ['required_tools', flowSeq(doc, [tool.name])],
        ['expect_tool', tool.name]
      ])
    )
  }
  // A prompt no tool should answer: calling any tool fails it.
  const noTool = ({ slug, prompt, rubric }: { slug: string; prompt: string; rubric: string }) =>
    map(doc, [
      ['id', ids.take('no-tool', slug)],
      ['prompt', prompt],
      ['rubric', rubric],
      ['required_tools', null],
      ['expect_tool', null],
      ['tags', flowSeq(doc, ['negative'])]
    ])
  const negatives: YAMLMap[] = [
    noTool(NEGATIVE_DRAFTS.smallTalk),
    noTool(NEGATIVE_DRAFTS.unknowable)
  ]
  if (destructive.length > 0) {
    negatives.push(
      map(doc, [
        ['id', ids.take('no-destructive', NEGATIVE_DRAFTS.whenOnlyAsking.slug)],
        ['prompt', NEGATIVE_DRAFTS.whenOnlyAsking.prompt],
        ['rubric', NEGATIVE_DRAFTS.whenOnlyAsking.rubric],
        ['forbidden_tools', flowSeq(doc, destructive)],
        ['tags', flowSeq(doc, ['negative'])]
      ])
    )
  }
  negatives[0].commentBefore = ' Negative cases: no tool should be called (expect_tool: null), or no destructive one (forbidden_tools).'
  cases.items.push(...negatives)
  const casesComment = [' Behaviour cases: a drafted prompt per tool (from its description) and a rubric for the judge; rewrite them as real requests.', ...unofferedLines(tools, 'case')]
  root.items.push(new Pair(key('cases', casesComment.join('\n'), true), cases))

  return {
    doc,
    counts: { toolTests: readOnly.length, cases: cases.items.length, negativeCases: negatives.length, todos, untested, unoffered, destructive }
  }
}
