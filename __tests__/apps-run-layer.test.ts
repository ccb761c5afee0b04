import { describe, expect, test } from '@jest/globals'
import { runTurn, type Transcript } from '../src/agent/run-agent.js'
import { emptyRender } from '../src/apps/render-record.js'
import { appsRunLayer, appsRunLayerFor, appScreensOf, runRenderId } from '../src/apps/run-layer.js'
import type { RenderRequest } from '../src/apps/types.js'
import type { EvalCase } from '../src/config/types.js'
import type { AppRenderer } from '../src/execute/app-host.js'
import type { FinishedRun } from '../src/execute/run-layer.js'
import { RUN_LAYERS, runLayersWith } from '../src/execute/run-layers.js'
import type { ChatClient, ChatResponse } from '../src/llm/chat.js'
import type { McpSession, McpTool, RawToolCall } from '../src/mcp/session.js'
import { outcomeOf } from '../src/mcp/outcome.js'
import type { RunSpec } from '../src/plan/expand.js'
import type { AppRender, ToolCallResult } from '../src/results/types.js'

// The MCP Apps run layer without a browser: a renderer double that says when each render starts
// and ends, and a session double that says when each request reaches it.

const VIEW: McpTool = { name: 'show', inputSchema: {}, ui: { resource_uri: 'ui://show/view.html', visibility: ['model', 'app'] } }
const PLAIN: McpTool = { name: 'plain', inputSchema: {} }

function sessionDouble(events: string[]): McpSession {
  const raw = (name: string, args: Record<string, unknown>): RawToolCall => ({
    name,
    args,
    request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    response: name === 'refused' ? { kind: 'error', error: { code: -32602, message: 'no' } } : { kind: 'result', result: { content: [{ type: 'text', text: `${name} done` }], structuredContent: { name } } },
    latency_ms: 1
  })
  return {
    era: 'modern',
    protocolVersion: '2026-07-28',
    tools: [VIEW, PLAIN, { name: 'refused', inputSchema: {}, ui: VIEW.ui }],
    resources: [],
    prompts: [],
    timings: { connect_ms: 1, list_ms: 1 },
    callTool: async (name, args) => (events.push(`call ${name}`), outcomeOf(raw(name, args))),
    callToolRaw: async (name, args) => (events.push(`raw ${name}`), raw(name, args)),
    readResource: async (uri) => (events.push(`read ${uri}`), { text: 'r', isError: false }),
    getPrompt: async () => ({ text: 'p', isError: false }),
    stderrTail: () => '',
    sessionHappenings: () => ({ declared: [], max_rounds: 0, misplaced_input_required: [], outside_server_requests: [], reads: [] }),
    sessionRounds: () => [],
    close: async () => undefined
  }
}

/** Renders that take a tick each, and fail when the tool test says so (`failing`). */
function rendererDouble(events: string[], requests: RenderRequest[], failing = false): AppRenderer {
  return {
    async render(request) {
      requests.push(request)
      events.push(`render ${request.id} starts`)
      await new Promise((resolve) => setTimeout(resolve, 20))
      events.push(`render ${request.id} ends`)
      const render = { ...emptyRender(request, 'rendered', null), screenshot: `apps/${request.id}.png` }
      return failing ? { ...render, findings: [{ id: 'app-no-errors', status: 'failed', message: 'threw', evidence: [] }] } : render
    }
  }
}

const caseOf = (apps?: 'render' | 'off'): EvalCase => ({ id: 'c', prompt: 'p', rubric: '', threshold: 0.5, required_tools: [], golden: null, runs: 1, kind: 'hard', tags: [], resilience: { faults: [], attacks: [] } as unknown as EvalCase['resilience'], conversation: null, inputs: null, ...(apps ? { apps } : {}) })
const specOf = (apps?: 'render' | 'off'): RunSpec => ({ index: 7, attempt: 1, case: caseOf(apps), model: 'm', prompt_name: 'd', system_prompt: 's' })
const finished = (calls: Partial<ToolCallResult>[]): FinishedRun => ({ tool_calls: calls as ToolCallResult[], final_output: 'ok', stop_reason: 'final_answer', llm_calls: 1, finished: true, cancelled: false, redact: (t) => t }) as FinishedRun
const signal = new AbortController().signal

describe('the apps run layer', () => {
  test('it sits just outside observed conformance, inside faults, attacks and the trace; without it the layers are RUN_LAYERS', () => {
    const apps = appsRunLayer(rendererDouble([], []), () => true)
    expect(runLayersWith(null)).toBe(RUN_LAYERS)
    expect(runLayersWith(apps).map((l) => l.name)).toEqual([RUN_LAYERS[0].name, 'apps', ...RUN_LAYERS.slice(1).map((l) => l.name)])
  })

  test('a call whose tool links a view returns at once, names its render, and the next request waits for the render', async () => {
    const events: string[] = []
    const requests: RenderRequest[] = []
    const run = appsRunLayer(rendererDouble(events, requests), () => true).prepare(specOf(), { transport: 'stdio', trace: undefined })
    const session = run.wrap!(sessionDouble(events), { observe: () => undefined })
    const outcome = await session.callTool('show', { q: 1 }, signal)
    events.push('answered')
    expect(outcome.annotations?.app_render).toBe(runRenderId(7, 1))
    await session.callTool('plain', {}, signal)
    await session.readResource('ui://x', signal)
    await session.idle!()
    expect(events).toEqual(['call show', 'render run-7.view-1 starts', 'answered', 'render run-7.view-1 ends', 'call plain', 'read ui://x'])
    // The view is given the call's arguments and the raw result, on the session it was made on.
    expect(requests[0]).toMatchObject({ id: 'run-7.view-1', tool: VIEW, args: { q: 1 }, result: { structuredContent: { name: 'show' } } })
    // A tool without a view, and a call answered with a JSON-RPC error, render nothing.
    expect((await session.callTool('refused', {}, signal)).annotations).toBeUndefined()
    expect(requests).toHaveLength(1)
    const verdict = run.record(finished([{ name: 'plain' }, { name: 'show', app_render: 'run-7.view-1' }]))
    expect(verdict.passed).toBe(true)
    expect(verdict.fields.app_renders?.map((r: AppRender) => [r.id, r.call_index, r.status])).toEqual([['run-7.view-1', 2, 'rendered']])
  })

  test('a failed view fails the run; a case with apps: off is not wrapped and records nothing', async () => {
    const failing = appsRunLayer(rendererDouble([], [], true), () => true).prepare(specOf(), { transport: 'stdio', trace: undefined })
    const session = failing.wrap!(sessionDouble([]), { observe: () => undefined })
    await session.callTool('show', {}, signal)
    await session.idle!()
    expect(failing.record(finished([{ name: 'show', app_render: 'run-7.view-1' }])).passed).toBe(false)

    const suite = { apps: { render: true, render_timeout_ms: 15_000, visual_diff: 'review' as const, visual_threshold: 0.01 }, cases: [caseOf('off')] }
    const layer = appsRunLayerFor(suite, rendererDouble([], []))!
    const off = layer.prepare(specOf('off'), { transport: 'stdio', trace: undefined })
    expect(off.wrap).toBeUndefined()
    expect(off.record(finished([]))).toEqual({ fields: {}, passed: true })
    // No case renders, or no host: no layer at all.
    expect(appsRunLayerFor({ apps: undefined, cases: [caseOf()] }, rendererDouble([], []))).toBeNull()
    expect(appsRunLayerFor(suite, null)).toBeNull()
  })

  test('the screenshots judged are those this layer took, never a file left by an earlier job', async () => {
    const layer = appsRunLayer(rendererDouble([], []), () => true)
    const session = layer.prepare(specOf(), { transport: 'stdio', trace: undefined }).wrap!(sessionDouble([]), { observe: () => undefined })
    await session.callTool('show', {}, signal)
    await session.idle!()
    expect(layer.screenshotOf('run-7.view-1')).toBe('apps/run-7.view-1.png')
    expect(layer.screenshotOf('run-1.view-1')).toBeNull()
    // Named but not on disk: no screenshot, rather than a throw.
    expect(appScreensOf('/nonexistent', layer, undefined).screenshotOf('run-7.view-1')).toBeNull()
  })
})

describe('the agent loop and a busy session', () => {
  test('the next call waits for the session to be idle before its clock starts, so a render is not in its latency', async () => {
    const events: string[] = []
    let step = 0
    const reply = (r: Partial<ChatResponse>): ChatResponse => ({ content: null, tool_calls: [], finish_reason: 'stop', usage: null, logprobs: null, latency_ms: 1, ...r })
    const llm: ChatClient = {
      complete: async () => {
        step++
        if (step > 2) return reply({ content: 'done' })
        return reply({ tool_calls: [{ id: `c${step}`, type: 'function', function: { name: 'plain', arguments: '{}' } }], finish_reason: 'tool_calls' })
      }
    }
    const inner = sessionDouble(events)
    let idleCalls = 0
    const session: McpSession = {
      ...inner,
      idle: async () => {
        idleCalls++
        events.push('idle asked')
        await new Promise((resolve) => setTimeout(resolve, 30))
        events.push('idle')
      }
    }
    const transcript: Transcript = { messages: [], tool_calls: [], llm_calls: [], final_output: null, stop_reason: 'max_steps', error: null, cancelled: null, turns: [] }
    await runTurn(transcript, { user: 'go', simulated: false }, { model: 'm', max_steps: 5, attempt: 1, max_tool_result_chars: 0, vision: false }, session, llm, signal)
    expect(idleCalls).toBe(2)
    expect(events).toEqual(['idle asked', 'idle', 'call plain', 'idle asked', 'idle', 'call plain'])
  })
})
