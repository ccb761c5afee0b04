import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { fixturePath } from '../__fixtures__/harness.js'
import { runOptions } from '../__fixtures__/options.js'
import { scriptedBrain, startScriptedLlm, type ScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import { writeResults } from '../src/output/write-results.js'
import { ConfigErrors } from '../src/config/errors.js'

// Server input end to end: one YAML, through prepare() and evaluate(), against a modern server
// (MRTR: input_required rounds) and a legacy one (server→client requests). The same cases must
// pass against both eras; the record says which way the questions came.
let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm(
    scriptedBrain(
      {
        'two skillets': { turns: [[{ name: 'order_item', args: { item: 'skillet', quantity: 2 } }]], answer: (r) => `Done: ${r[0]}` },
        'one kettle': { turns: [[{ name: 'order_item', args: { item: 'kettle', quantity: 1 } }]], answer: (r) => `Result: ${r[0]}` },
        'Summarize this': { turns: [[{ name: 'summarize_text', args: { text: 'MCP lets models call tools.' } }]], answer: (r) => r[0] },
        // The server's sampling request, answered by the model under test.
        'Summarize in one sentence': { turns: [], answer: 'Sure: MCP lets models call tools over one protocol.' }
      },
      (answer) => (/Ordered 2 skillet to 1 Main St, Springfield|not placed|Summary: Sure: MCP/.test(answer) ? 9 : 2)
    )
  )
})
afterAll(async () => llm.close())

const SUITE = `models: [m/one]
system_prompts: {d: "You help."}
cases:
  - id: order-needs-address
    prompt: Order two skillets for me.
    rubric: Confirms two skillets ordered to 1 Main St, Springfield.
    required_tools: [order_item]
    elicitation:
      - match: "delivery address"
        action: accept
        content: { street: "1 Main St", city: "Springfield" }
    expect_input_requests: [elicitation]
  - id: order-declined
    prompt: Order one kettle, but do not give an address.
    rubric: Says the order was not placed.
    elicitation:
      - match: "address"
        action: decline
    expect_input_requests: [elicitation]
  - id: summary-by-the-model
    prompt: Summarize this for me.
    rubric: Gives the summary.
    sampling: agent
    expect_input_requests: [sampling]
`

function optionsFor(dir: string, server: string) {
  writeFileSync(join(dir, 'evals.yaml'), SUITE)
  return runOptions(dir, { serverConfig: JSON.stringify({ command: process.execPath, args: [fixturePath(`servers/${server}`)] }), baseUrl: llm.url, conformance: 'off' })
}

describe.each([
  ['modern', 'mrtr-server.mjs', 'input_required'],
  ['legacy', 'legacy-input-server.mjs', 'server_request']
] as const)('one YAML, a %s server', (era, server, via) => {
  test('elicitation accepted and declined, sampling answered by the model under test: every case passes, and the record shows the rounds', async () => {
    const dir = mkdtempSync(join(tmpdir(), `inputs-${era}-`))
    const doc = await evaluate(prepare(optionsFor(dir, server), {}))
    const byCase = Object.fromEntries(doc.runs.map((r) => [r.case_id, r]))
    expect(doc.runs.map((r) => [r.case_id, r.status, r.server.era])).toEqual([
      ['order-needs-address', 'passed', era],
      ['order-declined', 'passed', era],
      ['summary-by-the-model', 'passed', era]
    ])

    const order = byCase['order-needs-address']
    expect(order.tool_calls[0].result).toMatch(/^Ordered 2 skillet to 1 Main St, Springfield \(ref /)
    const [round] = order.tool_calls[0].input_rounds!
    expect(round.via).toBe(via)
    expect(round.exchanges).toEqual([
      expect.objectContaining({ method: 'elicitation/create', response: { action: 'accept', content: { street: '1 Main St', city: 'Springfield' } }, problem: null })
    ])
    expect(round.exchanges[0].answered_by).toContain("rule 1 (match 'delivery address'): accept")
    if (via === 'input_required') expect(round).toMatchObject({ request_state_echoed: true, retry_id: expect.anything() })
    expect(order.inputs).toMatchObject({ declared: ['elicitation'], expected: ['elicitation'], asked: ['elicitation'], passed: true, reasons: [] })

    const declined = byCase['order-declined']
    expect(declined.tool_calls[0].result).toBe('Order not placed: the user declined to give an address')
    expect(declined.tool_calls[0].input_rounds![0].exchanges[0].response).toEqual({ action: 'decline' })

    const summary = byCase['summary-by-the-model']
    expect(summary.tool_calls[0].result).toBe('Summary: Sure: MCP lets models call tools over one protocol.')
    // The sampling answer is an LLM call of the model under test, not one of its steps.
    expect(summary.llm_calls.map((c) => c.purpose ?? 'agent')).toEqual(['agent', 'sampling', 'agent'])
    expect(summary.inputs).toMatchObject({ declared: ['sampling'], asked: ['sampling'], passed: true })

    const { report } = writeResults(doc, { resultsPath: join(dir, 'results.json'), reportPath: join(dir, 'r.md') }, [])
    expect(report).toContain('##### Server input ✅')
    expect(report).toContain(via === 'input_required' ? 'input_required (id ' : 'server request `elicitation/create` (id ')
  })
})

describe('roots', () => {
  test('server-filesystem started with no directory argument: server_config roots let it list and read a temp directory, and expect_input_requests sees the roots it asked for as it started', async () => {
    const work = realpathSync(mkdtempSync(join(tmpdir(), 'roots-work-')))
    writeFileSync(join(work, 'notes.txt'), 'the launch code is blue\n')
    const respond = scriptedBrain(
      { 'notes file': { turns: [[{ name: 'read_text_file', args: { path: join(work, 'notes.txt') } }]], answer: (r) => `The notes say: ${r[0]}` } },
      (answer) => (answer.includes('the launch code is blue') ? 9 : 1)
    )
    // The server asks for the roots once initialized and takes them in a moment later: this model
    // answers at once (as a replayed answer would), so the session must wait for it, or the
    // first call is refused ("Access denied").
    const brain = await startScriptedLlm(respond)
    try {
      const dir = mkdtempSync(join(tmpdir(), 'roots-'))
      writeFileSync(
        join(dir, 'evals.yaml'),
        'models: [m/one]\nsystem_prompts: {d: "You help."}\ncases:\n  - id: read-notes\n    prompt: What does the notes file say?\n    rubric: Quotes the notes.\n    required_tools: [read_text_file]\n    expect_input_requests: [roots]\n'
      )
      const serverConfig = JSON.stringify({ command: process.execPath, args: [fixturePath('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')], roots: [pathToFileURL(work).href] })
      const doc = await evaluate(prepare(runOptions(dir, { serverConfig, baseUrl: brain.url, conformance: 'off' }), {}))
      const [run] = doc.runs
      expect(run.status).toBe('passed')
      expect(run.tool_calls[0]).toMatchObject({ name: 'read_text_file', is_error: false })
      expect(run.tool_calls[0].result).toContain('the launch code is blue')
      expect(run.inputs).toMatchObject({ declared: ['roots'], asked: ['roots'], passed: true })
      expect(run.inputs!.outside_calls[0].exchanges[0]).toMatchObject({ method: 'roots/list', response: { roots: [expect.objectContaining({ uri: pathToFileURL(work).href })] } })
    } finally {
      await brain.close()
    }
  })

  test('expect_input_requests: [roots] with roots neither on the case nor in server_config is a configuration error before anything starts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'roots-'))
    writeFileSync(join(dir, 'evals.yaml'), 'system_prompts: {d: "You help."}\ncases:\n  - id: r\n    prompt: p\n    rubric: r\n    expect_input_requests: [roots]\n')
    const options = runOptions(dir, { serverConfig: JSON.stringify({ command: process.execPath, args: ['x.mjs'] }), baseUrl: llm.url })
    let thrown: unknown
    try {
      prepare(options, {})
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ConfigErrors)
    expect(String((thrown as Error).message)).toMatch(/evals\.yaml:\d+:\d+ at cases\[0\]\.expect_input_requests\[0\]: expects roots, but neither the case nor server_config declares roots/)
  })
})
