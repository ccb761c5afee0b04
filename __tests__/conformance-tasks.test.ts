import { afterEach, describe, expect, test } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { EXAMPLE_SERVER, LEGACY_SERVER, fixturePath } from '../__fixtures__/harness.js'
import type { ServerConfig } from '../src/config/types.js'
import { TASKS_CATALOG, TASKS_CHECKS, checkTasks } from '../src/conformance/checks/tasks.js'
import { inputAnswers, planTaskCalls, sampleArguments } from '../src/conformance/checks/tasks-plan.js'
import type { ProbeData } from '../src/conformance/probe.js'
import type { ProbeOptions } from '../src/conformance/probe.js'
import { runConformance } from '../src/conformance/run.js'
import type { CheckResult, ConformanceReport } from '../src/conformance/types.js'

const FIXTURE = fixturePath('servers/tasks-server.mjs')
const stdioFixture = (defect = ''): ServerConfig => ({ kind: 'stdio', command: process.execPath, args: [FIXTURE], env: { DEFECT: defect } })

const running: ChildProcess[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill()
})

async function httpFixture(defect = ''): Promise<ServerConfig & { kind: 'http' }> {
  const child = spawn(process.execPath, [FIXTURE, '--http'], { env: { ...process.env, DEFECT: defect } })
  running.push(child)
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  return { kind: 'http', url, headers: {} }
}

const IDS = TASKS_CHECKS.map((c) => c.id)
const tasksChecks = (report: ConformanceReport): CheckResult[] => report.checks.filter((c) => c.id.startsWith('tasks-'))
const statuses = (report: ConformanceReport) => Object.fromEntries(tasksChecks(report).map((c) => [c.id, c.status]))
const check = (report: ConformanceReport, id: string) => report.checks.find((c) => c.id === id)!
const allPass = Object.fromEntries(IDS.map((id) => [id, 'pass']))
/** Over stdio the Mcp-Name rule does not apply. */
const allPassOn = (transport: 'stdio' | 'http') => ({ ...allPass, ...(transport === 'stdio' ? { 'tasks-mcp-name-header': 'skip' } : {}) })

async function run(config: ServerConfig, options: ProbeOptions = {}): Promise<ConformanceReport> {
  return runConformance(config, options)
}

describe('tasks extension (SEP-2663) on a server that declares it', () => {
  test.each(['stdio', 'http'] as const)('a clean server passes every tasks check over %s', async (transport) => {
    const report = await run(transport === 'stdio' ? stdioFixture() : await httpFixture())
    expect(statuses(report)).toEqual(allPassOn(transport))
    // The report lists the ids in the module's order.
    expect(tasksChecks(report).map((c) => c.id)).toEqual(IDS)
    // Whether a poll sees it working again between the update and the end depends on timing.
    expect(check(report, 'tasks-status-transitions').message).toMatch(/"confirm_report": working → input_required → (working → )?completed/)
    expect(check(report, 'tasks-update').message).toMatch(/tasks\/update of "confirm_report"'s task .* with inputResponses for "confirm-1" was acknowledged/)
    expect(check(report, 'tasks-required-task-error').evidence?.response).toContain('-32021')
  })

  // One seeded defect each, and the one check it must fail (the others stay as they were).
  const DEFECTS: [string, string, string][] = [
    ['terminal-state-changes', 'tasks-status-transitions', 'left the terminal status "completed"'],
    ['legacy-wire-fields', 'tasks-wire-fields', 'the 2025-11-25 field "ttl"'],
    ['required-task-runs-inline', 'tasks-required-task-error', 'got a result; expected -32021'],
    ['required-error-no-data', 'tasks-required-task-error', 'does not name the extension'],
    ['get-unknown-task-ok', 'tasks-get-unknown-task', 'got a result; expected -32602'],
    ['ungated', 'tasks-gated-on-capability', 'expected -32021'],
    ['task-without-extension', 'tasks-gated-on-capability', 'tools/call of "quick_sum" from a request that does not declare'],
    ['ack-with-task', 'tasks-update', 'answered Task fields'],
    ['get-result-type-task', 'tasks-get', 'answered resultType "task"'],
    ['completed-without-result', 'tasks-get', 'without the result inlined'],
    ['not-durable', 'tasks-get', 'right after the CreateTaskResult got error -32602'],
    ['tasks-result-served', 'tasks-removed-methods', 'tasks/result (2025-11-25, removed from the extension)'],
    ['v1-capability', 'tasks-extension-declared', 'capabilities.tasks'],
    ['unknown-writes-ok', 'tasks-unknown-task-update-cancel', 'tasks/update of a taskId the server never issued got a result']
  ]
  test.concurrent.each(DEFECTS)('stdio, DEFECT=%s fails %s', async (defect, id, words) => {
    const report = await run(stdioFixture(defect))
    expect(check(report, id)).toMatchObject({ status: check(report, id).severity === 'warning' ? 'warn' : 'fail' })
    expect(check(report, id).message).toContain(words)
    expect(check(report, id).evidence).toBeDefined()
  })

  test.each([
    ['terminal-state-changes', 'tasks-status-transitions'],
    ['not-durable', 'tasks-get'],
    ['required-task-runs-inline', 'tasks-required-task-error'],
    ['get-unknown-task-ok', 'tasks-get-unknown-task'],
    ['no-task-name-check', 'tasks-mcp-name-header']
  ])('http, DEFECT=%s fails %s', async (defect, id) => {
    const report = await run(await httpFixture(defect))
    expect(check(report, id)).toMatchObject({ status: 'fail' })
  })

  test('ack-with-task fails tasks-cancel too, and the others pass', async () => {
    const report = await run(stdioFixture('ack-with-task'))
    expect(statuses(report)).toEqual({ ...allPassOn('stdio'), 'tasks-update': 'fail', 'tasks-cancel': 'fail' })
  })

  test('the 2025-11-25 nested CreateTaskResult fails tasks-create-result; the task checks skip, saying no task was created', async () => {
    const report = await run(stdioFixture('nested-task'))
    expect(check(report, 'tasks-create-result')).toMatchObject({ status: 'fail' })
    expect(check(report, 'tasks-create-result').message).toContain('nested "task" object')
    for (const id of ['tasks-wire-fields', 'tasks-get', 'tasks-status-transitions', 'tasks-update', 'tasks-cancel']) {
      expect(check(report, id)).toMatchObject({ status: 'skip' })
      expect(check(report, id).message).toMatch(/^no task was created: tools\/call of "export_all" got a result/)
    }
  })

  test('probes: none calls no tool: the call checks skip, the rules that need no call still run', async () => {
    const report = await run(stdioFixture(), { probes: 'none' })
    expect(statuses(report)).toEqual({
      ...allPassOn('stdio'),
      'tasks-create-result': 'skip',
      'tasks-wire-fields': 'skip',
      'tasks-get': 'skip',
      'tasks-status-transitions': 'skip',
      'tasks-update': 'skip',
      'tasks-cancel': 'skip',
      'tasks-required-task-error': 'skip'
    })
    expect(check(report, 'tasks-create-result').message).toBe('no tool was called: probes: none (no tool is called)')
    expect(check(report, 'tasks-required-task-error').message).toBe('probes: none (no tool is called)')
  })

  test('tools without execution.taskSupport (SEP-2663 has no per-tool flag): read-only tools are called, and a task followed', async () => {
    const report = await run(stdioFixture('unflagged'))
    expect(statuses(report)).toEqual({ ...allPassOn('stdio'), 'tasks-update': 'skip', 'tasks-required-task-error': 'skip' })
    expect(check(report, 'tasks-create-result').message).toContain('tools/call of "quick_sum"')
    expect(check(report, 'tasks-required-task-error').message).toBe('no tool declares execution.taskSupport "required"')
  })

  test('a tool test seed gives the arguments', async () => {
    // Arguments quick_sum refuses (a plain isError result, no task): only a seed could have given them.
    const report = await run(stdioFixture(), { seeds: [{ tool: 'quick_sum', args: { a: 'two', b: 3 }, source: 'tool test add-numbers' }] })
    expect(check(report, 'tasks-create-result')).toMatchObject({ status: 'pass', message: expect.stringContaining('tools/call of "export_all", "confirm_report" (the extension declared)') })
  })
})

describe('servers without the tasks extension: every tasks check is listed, and skipped with the reason', () => {
  const expectSkips = (report: ConformanceReport, reason: string) => {
    expect(tasksChecks(report).map((c) => c.id)).toEqual(IDS)
    for (const c of tasksChecks(report)) expect(c).toMatchObject({ status: 'skip', message: reason })
  }

  test.each(['', 'task-required'])('conformance-server.mjs (DEFECT=%s)', async (defect) => {
    const report = await run({ kind: 'stdio', command: process.execPath, args: [fixturePath('servers/conformance-server.mjs')], env: { DEFECT: defect } })
    expectSkips(report, 'the server does not declare io.modelcontextprotocol/tasks')
  })

  test('the example server', async () => {
    expectSkips(await run(EXAMPLE_SERVER), 'the server does not declare io.modelcontextprotocol/tasks')
  })

  test('a legacy server', async () => {
    expectSkips(await run(LEGACY_SERVER), 'legacy server: applies from 2026-07-28')
  })
})

describe('a 2025-11-25 server that declares tasks', () => {
  test('server-everything (2025-11-25, declares tasks) over stdio: tasks/get of an unknown task gets -32602', async () => {
    const report = await run({ kind: 'stdio', command: process.execPath, args: [fixturePath('../node_modules/@modelcontextprotocol/server-everything/dist/index.js')], env: {} })
    expect(report.era).toBe('legacy')
    expect(statuses(report)).toEqual({ ...Object.fromEntries(IDS.map((id) => [id, 'skip'])), 'tasks-get-unknown-task': 'pass' })
  })
})

describe('the pure parts', () => {
  const probe = (tasks: ProbeData['tasks'], era: ProbeData['era'] = 'modern'): ProbeData =>
    ({ transport: 'stdio', era, probes: 'safe', discover: { method: 'server/discover', request: {}, response: {} }, toolsList: [], otherLists: [], tasks }) as ProbeData

  test('a legacy server declaring the 2025-11-25 tasks capability: held to the rule both revisions share, the rest skipped saying so', () => {
    const reason = 'legacy server: applies from 2026-07-28 (its 2025-11-25 tasks, capabilities.tasks, are not followed: only tasks/get of an unknown task is probed)'
    const unknownGet = (response: Record<string, unknown>) => ({ method: 'tasks/get', request: { method: 'tasks/get', params: { taskId: 'x' } }, response })
    const legacy = (frame: Record<string, unknown>) => checkTasks(probe({ era: 'legacy', declared: true, legacySlot: true, calls: [], note: '', unknownGet: unknownGet({ frame }) }, 'legacy'))
    const good = legacy({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Task not found' } })
    expect(good.map((r) => r.id)).toEqual(IDS)
    expect(good.find((r) => r.id === 'tasks-get-unknown-task')).toMatchObject({ status: 'pass' })
    expect(new Set(good.filter((r) => r.id !== 'tasks-get-unknown-task').map((r) => `${r.status}: ${r.message}`))).toEqual(new Set([`skip: ${reason}`]))
    const bad = legacy({ jsonrpc: '2.0', id: 1, result: { taskId: 'x', status: 'working' } })
    expect(bad.find((r) => r.id === 'tasks-get-unknown-task')).toMatchObject({ status: 'fail', message: 'tasks/get of a taskId the server never issued got a result; expected -32602 (Invalid params)' })
  })


  test('a modern server advertising only the 2025-11-25 capabilities.tasks fails tasks-extension-declared; the rest skip', () => {
    const results = checkTasks(probe({ era: 'modern', declared: false, legacySlot: true, calls: [], note: '' }))
    expect(results.find((r) => r.id === 'tasks-extension-declared')).toMatchObject({ status: 'fail' })
    expect(results.filter((r) => r.status === 'skip')).toHaveLength(IDS.length - 1)
  })

  test('every check has a catalog entry, not scored by the official suite (an extension) or not covered by it', () => {
    expect(Object.keys(TASKS_CATALOG).sort()).toEqual([...IDS].sort())
    for (const [id, entry] of Object.entries(TASKS_CATALOG)) {
      // tasks/get of an unknown task is the one rule the 2025-11-25 tasks utility shares.
      expect(entry.revision).toBe(id === 'tasks-get-unknown-task' ? 'both' : '2026-07-28')
      expect(['unscored', 'none']).toContain(entry.official.scoring)
      if (entry.official.scoring === 'unscored') expect(entry.official.note).toContain('extension')
    }
  })

  test('planTaskCalls: task-supporting tools the mode allows or a seed calls; the task-only one first; the others said', () => {
    const tools = [
      { name: 'plain', annotations: { readOnlyHint: true } },
      { name: 'opt', annotations: { readOnlyHint: true }, execution: { taskSupport: 'optional' }, inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 3 } }, required: ['n'] } },
      { name: 'writes', execution: { taskSupport: 'optional' } },
      { name: 'only', execution: { taskSupport: 'required' } }
    ]
    const plan = planTaskCalls(tools, [{ tool: 'only', args: { x: 1 }, source: 'tool test t' }], 'safe')
    expect(plan.calls.map((c) => c.tool)).toEqual(['only', 'opt'])
    expect(plan.calls[1].args).toEqual({ n: 3 })
    expect(plan.required).toMatchObject({ tool: 'only', args: { x: 1 } })
    expect(plan.optional).toMatchObject({ tool: 'opt' })
    expect(plan.note).toContain('writes')
    // No tool declares task support: the tool tests' calls, at most two.
    const seeds = ['a', 'b', 'c'].map((tool) => ({ tool, args: {}, source: `tool test ${tool}` }))
    expect(planTaskCalls([{ name: 'a' }], seeds, 'safe').calls.map((c) => c.tool)).toEqual(['a', 'b'])
    // … else the tools the mode allows, with arguments from their schema.
    const readOnly = [{ name: 'w' }, { name: 'r', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }]
    expect(planTaskCalls(readOnly, [], 'safe').calls).toEqual([{ tool: 'r', args: { q: 'mcp-server-evals' }, source: 'arguments made from its inputSchema' }])
    expect(planTaskCalls(readOnly, [], 'safe').note).toBe('no tool declares execution.taskSupport: other tools called')
    expect(planTaskCalls([{ name: 'w' }], [], 'safe')).toMatchObject({ calls: [], note: 'no tool declares execution.taskSupport, none is annotated readOnlyHint: true (probes: safe) and no tool test gives a call to start from' })
  })

  test('sampleArguments and inputAnswers', () => {
    expect(sampleArguments({ type: 'object', properties: { s: { type: 'string' }, e: { enum: ['x', 'y'] }, o: { type: 'object', properties: { b: { type: 'boolean' } }, required: ['b'] }, r: { $ref: '#/$defs/n' } }, required: ['s', 'e', 'o', 'r'], $defs: { n: { type: 'number', minimum: 0.5 } } })).toEqual({ s: 'mcp-server-evals', e: 'x', o: { b: true }, r: 0.5 })
    expect(inputAnswers({ a: { method: 'elicitation/create', params: {} }, b: { method: 'roots/list' }, c: { method: 'sampling/createMessage' } })).toEqual({ a: { action: 'decline' }, b: { roots: [] } })
  })
})
