import { beforeAll, describe, expect, test } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { evaluateWith, fixturePath, suiteOf } from '../__fixtures__/harness.js'
import {
  agentRequestsOf,
  judgedOutput,
  judgeRequestsOf,
  modelMarker,
  modelViewServer,
  offeredNames,
  recordMarker,
  sentMessages,
  type ContentPart
} from '../__fixtures__/model-view.js'
import { runOptions } from '../__fixtures__/options.js'
import { scriptedBrain, startScriptedLlm, toolResults, type AgentScript, type ChatRequestBody, type Responder } from '../__fixtures__/scripted-llm.js'
import { APP_MIME_TYPE, CHART_URI, DASHBOARD_URI, logText, PNG_BASE64, SEARCH_FAILURE } from '../__fixtures__/servers/model-view-server.mjs'
import { prepare } from '../src/config/prepare.js'
import { evaluate } from '../src/evaluate.js'
import type { ResultsDocument, RunResult } from '../src/results/types.js'
import { useRunnerTemp } from '../__fixtures__/env-vars.js'
import { runCli } from '../__fixtures__/cli.js'

// What the model under test is shown of a server (issue 15), end to end: the real engine, a real
// fixture process (or the published server-memory), and a scripted LLM whose request bodies are
// asserted as the provider would get them.

const require = createRequire(import.meta.url)
const MEMORY_SERVER = require.resolve('@modelcontextprotocol/server-memory/dist/index.js')

/** Where this file's run directories go: RUNNER_TEMP decides, so a test can see what is left there. */
const runner = useRunnerTemp('model-view-runner-')
const { base: runDirsBase, inBase, leftSince } = runner

/** The fixture with its state in the run's own directory. */
const PER_RUN_STATE = modelViewServer(['STATE_FILE=${RUN_DIR}/state.json'])
/** The fixture as server_config JSON, its facts in `stateFile`. */
const modelViewConfig = (stateFile: string) => JSON.stringify({ command: process.execPath, args: [fixturePath('servers/model-view-server.mjs'), `STATE_FILE=${stateFile}`] })
const passAll = () => 9
const NOT_VISION = (model: string) => `${model} is not known to take images: set vision: true on it under models:, or add a pattern to vision_models:`

function runOf(doc: ResultsDocument, caseId: string, model?: string): RunResult {
  const run = doc.runs.find((r) => r.case_id === caseId && (model === undefined || r.model === model))
  if (!run) throw new Error(`no run of ${caseId} ${model ?? ''}: ${doc.runs.map((r) => `${r.case_id}/${r.model}`).join(', ')}`)
  return run
}

/** The suite at `<dir>/evals.yaml`, through prepare() and evaluate() as the action runs it. */
async function evaluateYaml(yaml: string, responder: Responder, values: Record<string, string>): Promise<{ doc: ResultsDocument; llm: { requests: ChatRequestBody[] } }> {
  const llm = await startScriptedLlm(responder)
  try {
    const dir = mkdtempSync(join(tmpdir(), 'model-view-'))
    writeFileSync(join(dir, 'evals.yaml'), yaml)
    const doc = await evaluate(prepare(runOptions(dir, { baseUrl: llm.url, conformance: 'off', ...values }), {}))
    return { doc, llm: { requests: llm.requests } }
  } finally {
    await llm.close()
  }
}

describe('max_tool_result_chars: a huge result', () => {
  const LOG = logText(300_000)
  const QUOTE = logText(12_000)
  const script: Record<string, AgentScript> = {
    'Read the service log': {
      turns: [
        [
          { name: 'read_log', args: {} },
          { name: 'read_log', args: { size: 8000 } },
          { name: 'read_log', args: { size: 4000 } }
        ]
      ],
      // A model that quotes at length: its answer is longer than the limit too.
      answer: () => QUOTE
    }
  }
  const CASE = `  - id: huge-log
    prompt: Read the service log and quote it.
    rubric: Quotes the log.
    required_tools: [read_log]
`

  test('the model sees the first 5,000 characters and the marker; the record keeps up to its budget and says what was cut; the judge gets the answer bounded', async () => {
    const { doc, llm } = await evaluateWith({ suite: suiteOf(CASE, 'models: [scripted/agent]\nmax_tool_result_chars: 5000\n'), server: PER_RUN_STATE, responder: scriptedBrain(script, passAll) })
    const run = runOf(doc, 'huge-log')
    expect(run.status).toBe('passed')

    // At the scripted LLM: each tool message is what the model was shown.
    const [, afterTools] = agentRequestsOf(llm, 'scripted/agent', 'Read the service log')
    expect(toolResults(afterTools)).toEqual([
      LOG.slice(0, 5000) + modelMarker(295_000, 300_000, 5000),
      logText(8000).slice(0, 5000) + modelMarker(3000, 8000, 5000),
      logText(4000)
    ])

    // The record keeps up to 262,144 characters (the record budget for a limit under it), then its own marker.
    const [huge, medium, small] = run.tool_calls
    expect(huge.result).toBe(LOG.slice(0, 262_144) + recordMarker(300_000 - 262_144))
    expect(huge.cut).toEqual({ total_chars: 300_000, total_bytes: 300_000, shown_chars: 5000, kept_chars: 262_144 })
    expect(medium.result).toBe(logText(8000))
    expect(medium.cut).toEqual({ total_chars: 8000, total_bytes: 8000, shown_chars: 5000, kept_chars: 8000 })
    expect(small.result).toBe(logText(4000))
    expect(small.cut).toBeUndefined()

    // The judge is shown the final answer cut the same way; the record keeps the answer whole.
    const [scoring] = judgeRequestsOf(llm, 'Read the service log and quote it.')
    expect(judgedOutput(scoring)).toBe(QUOTE.slice(0, 5000) + modelMarker(7000, 12_000, 5000))
    expect(run.final_output).toBe(QUOTE)

    expect(run.model_view).toMatchObject({ max_tool_result_chars: 5000, cut_results: 2 })
    expect(run.model_view!.notes).toEqual(
      expect.arrayContaining(['2 tool results were cut to 5,000 characters before the model saw them (max_tool_result_chars).', 'The final answer given to the judge was cut to 5,000 characters.'])
    )
  })

  test('max_tool_result_chars: 0 shows the model everything; the record still keeps only its budget, and says so', async () => {
    const { doc, llm } = await evaluateWith({ suite: suiteOf(CASE, 'models: [scripted/agent]\nmax_tool_result_chars: 0\n'), server: PER_RUN_STATE, responder: scriptedBrain(script, passAll) })
    const run = runOf(doc, 'huge-log')
    const [, afterTools] = agentRequestsOf(llm, 'scripted/agent', 'Read the service log')
    expect(toolResults(afterTools)).toEqual([LOG, logText(8000), logText(4000)])
    expect(run.tool_calls[0].result).toBe(LOG.slice(0, 262_144) + recordMarker(300_000 - 262_144))
    expect(run.tool_calls[0].cut).toEqual({ total_chars: 300_000, total_bytes: 300_000, shown_chars: 300_000, kept_chars: 262_144 })
    expect(run.tool_calls[1].cut).toBeUndefined()
    expect(judgedOutput(judgeRequestsOf(llm, 'Read the service log and quote it.')[0])).toBe(QUOTE)
    expect(run.model_view).toMatchObject({ max_tool_result_chars: 0, cut_results: 0 })
    expect(run.model_view!.notes.filter((n) => /cut/.test(n))).toEqual([])
  })

  test('the max_tool_result_chars input wins over the YAML', async () => {
    const yaml = suiteOf(CASE, 'models: [scripted/agent]\nmax_tool_result_chars: 5000\n')
    const { doc, llm } = await evaluateYaml(yaml, scriptedBrain(script, passAll), { serverConfig: modelViewConfig('${RUN_DIR}/state.json'), maxToolResultChars: '3000' })
    const run = runOf(doc, 'huge-log')
    expect(run.model_view).toMatchObject({ max_tool_result_chars: 3000, cut_results: 3 })
    const [, afterTools] = agentRequestsOf(llm, 'scripted/agent', 'Read the service log')
    expect(toolResults(afterTools)).toEqual([
      LOG.slice(0, 3000) + modelMarker(297_000, 300_000, 3000),
      logText(8000).slice(0, 3000) + modelMarker(5000, 8000, 3000),
      logText(4000).slice(0, 3000) + modelMarker(1000, 4000, 3000)
    ])
    expect(run.tool_calls[2].cut).toEqual({ total_chars: 4000, total_bytes: 4000, shown_chars: 3000, kept_chars: 4000 })
  })
})

describe('images and audio', () => {
  const scripts: Record<string, AgentScript> = {
    'Take a screenshot': {
      // Two calls in one step: the images follow both tool messages.
      turns: [
        [
          { name: 'screenshot', args: {} },
          { name: 'search_libraries', args: { query: 'charts' } }
        ]
      ],
      answer: 'The dashboard looks fine.'
    },
    'Take a vector screenshot': { turns: [[{ name: 'screenshot', args: { kind: 'svg' } }]], answer: 'Both images taken.' },
    'Record a clip': { turns: [[{ name: 'record_audio', args: {} }]], answer: 'Recorded.' }
  }
  const CASES = `  - id: screenshot
    prompt: Take a screenshot of the dashboard.
    rubric: Describes the dashboard.
  - id: svg
    prompt: Take a vector screenshot of the dashboard.
    rubric: Says both images were taken.
  - id: audio
    prompt: Record a clip.
    rubric: Says it recorded.
`
  const VISION = 'scripted/vision-model'
  const PLAIN = 'scripted/plain-model'
  let evaluation: Awaited<ReturnType<typeof evaluateWith>>
  beforeAll(async () => {
    evaluation = await evaluateWith({
      suite: suiteOf(CASES, `models: [{id: ${VISION}, vision: true}, ${PLAIN}]\n`),
      server: PER_RUN_STATE,
      responder: scriptedBrain(scripts, passAll)
    })
  })

  test('to a vision model: the tool message says the image follows, and one user message right after the tool messages carries it as a data: URL', () => {
    const [, afterTools] = agentRequestsOf(evaluation.llm, VISION, 'Take a screenshot')
    const messages = sentMessages(afterTools)
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user'])
    expect(messages[3].content).toBe('Screenshot of the dashboard.\n[image: image/png, sent in the next message]')
    expect(messages[4].content).toBe('Found 2 libraries for "charts": charts-core, charts-extras')
    const parts = messages[5].content as ContentPart[]
    expect(parts).toEqual([
      { type: 'text', text: expect.stringMatching(/^The images the tool results above returned, in order: 1\. screenshot \(image\/png\)/) },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } }
    ])

    const run = runOf(evaluation.doc, 'screenshot', VISION)
    // The record keeps a copy of the small PNG for the HTML report.
    expect(run.tool_calls[0].media).toEqual([{ type: 'image', mime_type: 'image/png', bytes: 75, sent: true, reason: null, preview: `data:image/png;base64,${PNG_BASE64}` }])
    expect(run.tool_calls[1].media).toBeUndefined()
    expect(run.model_view).toMatchObject({ vision: true, vision_source: 'models', vision_pattern: null, images_sent: 1, images_as_text: 0, audio_as_text: 0 })
    expect(run.model_view!.notes.filter((n) => /image|audio/.test(n))).toEqual([])
    // eval-action's conversation holds text only: the image message is not one of its entries.
    expect(run.conversation.every((e) => typeof e.content === 'string')).toBe(true)
    expect(run.conversation.filter((e) => e.role === 'user')).toHaveLength(1)
  })

  test('to a model not known to take images: only the placeholder, and the record says why', () => {
    const [, afterTools] = agentRequestsOf(evaluation.llm, PLAIN, 'Take a screenshot')
    const messages = sentMessages(afterTools)
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool'])
    expect(messages[3].content).toBe('Screenshot of the dashboard.\n[image: image/png]')
    expect(JSON.stringify(evaluation.llm.requests.filter((r) => r.model === PLAIN))).not.toContain('image_url')

    const run = runOf(evaluation.doc, 'screenshot', PLAIN)
    expect(run.tool_calls[0].media).toEqual([{ type: 'image', mime_type: 'image/png', bytes: 75, sent: false, reason: NOT_VISION(PLAIN), preview: `data:image/png;base64,${PNG_BASE64}` }])
    expect(run.model_view).toMatchObject({ vision: false, vision_source: 'none', vision_pattern: null, images_sent: 0, images_as_text: 1 })
    expect(run.model_view!.notes).toEqual(expect.arrayContaining([expect.stringContaining(`1 image was shown to the model as a text placeholder: ${NOT_VISION(PLAIN)}`)]))
  })

  test('an SVG to the vision model stays a placeholder, with a reason; the PNG beside it is sent', () => {
    const [, afterTools] = agentRequestsOf(evaluation.llm, VISION, 'Take a vector screenshot')
    const messages = sentMessages(afterTools)
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user'])
    expect(messages[3].content).toBe('Screenshot of the dashboard.\n[image: image/png, sent in the next message]\n[image: image/svg+xml]')
    const images = (messages[4].content as ContentPart[]).filter((p) => p.type === 'image_url')
    expect(images).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } }])

    const run = runOf(evaluation.doc, 'svg', VISION)
    const [png, svg] = run.tool_calls[0].media!
    expect(png).toEqual({ type: 'image', mime_type: 'image/png', bytes: 75, sent: true, reason: null, preview: `data:image/png;base64,${PNG_BASE64}` })
    expect(svg).not.toHaveProperty('preview')
    expect(svg).toMatchObject({ type: 'image', mime_type: 'image/svg+xml', sent: false })
    expect(svg.reason).toEqual(expect.stringMatching(/\S/))
    expect(svg.reason).not.toBe(NOT_VISION(VISION))
    expect(run.model_view).toMatchObject({ images_sent: 1, images_as_text: 1 })
    expect(run.model_view!.notes).toEqual(expect.arrayContaining([expect.stringContaining('1 image was shown to the model as a text placeholder')]))
  })

  test.each([VISION, PLAIN])('audio to %s: never sent, a placeholder, and said so', (model) => {
    const [, afterTools] = agentRequestsOf(evaluation.llm, model, 'Record a clip')
    const messages = sentMessages(afterTools)
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool'])
    expect(messages[3].content).toBe('Recorded 2 ms of audio.\n[audio: audio/wav]')
    const run = runOf(evaluation.doc, 'audio', model)
    expect(run.tool_calls[0].media).toEqual([{ type: 'audio', mime_type: 'audio/wav', bytes: 60, sent: false, reason: 'audio is never sent to a model' }])
    expect(run.model_view).toMatchObject({ images_sent: 0, images_as_text: 0, audio_as_text: 1 })
    expect(run.model_view!.notes).toEqual(expect.arrayContaining(['1 audio block was shown to the model as a text placeholder.']))
  })

  test('vision_models patterns and an explicit vision: false decide too', async () => {
    const { doc, llm } = await evaluateWith({
      suite: suiteOf(CASES, 'models: [acme/My-VL-7b, {id: openai/gpt-4o, vision: false}]\nvision_models: ["^my-vl"]\n'),
      server: PER_RUN_STATE,
      responder: scriptedBrain(scripts, passAll),
      settings: { filter: 'screenshot' }
    })
    // Searched case-insensitively in the id after its last `/`.
    expect(runOf(doc, 'screenshot', 'acme/My-VL-7b').model_view).toMatchObject({ vision: true, vision_source: 'vision_models', vision_pattern: '^my-vl', images_sent: 1 })
    expect(runOf(doc, 'screenshot', 'openai/gpt-4o').model_view).toMatchObject({ vision: false, vision_source: 'models', vision_pattern: null, images_sent: 0, images_as_text: 1 })
    expect(JSON.stringify(llm.requests.filter((r) => r.model === 'openai/gpt-4o'))).not.toContain('image_url')
    expect(JSON.stringify(llm.requests.filter((r) => r.model === 'acme/My-VL-7b'))).toContain(`data:image/png;base64,${PNG_BASE64}`)
  })
})

describe('MCP Apps', () => {
  test('the ui:// resource and the app-only tool are offered in no request; the ordinary resource is; the record lists the app resources', async () => {
    const scripts: Record<string, AgentScript> = {
      'Show me the dashboard': {
        turns: [
          [{ name: 'show_dashboard', args: {} }],
          [
            { name: 'readme', args: {} },
            { name: 'dashboard_view', args: {} }
          ]
        ],
        answer: 'Shown.'
      }
    }
    const { doc, llm } = await evaluateWith({
      suite: suiteOf('  - id: dashboard\n    prompt: Show me the dashboard.\n    rubric: Shows it.\n', 'models: [scripted/agent]\n'),
      server: PER_RUN_STATE,
      responder: scriptedBrain(scripts, passAll)
    })
    const requests = agentRequestsOf(llm, 'scripted/agent', 'Show me the dashboard')
    expect(requests).toHaveLength(3)
    for (const request of requests) {
      expect(offeredNames(request)).toEqual(['read_log', 'screenshot', 'record_audio', 'search_libraries', 'show_dashboard', 'show_chart', 'remember', 'recall', 'readme'])
    }
    const run = runOf(doc, 'dashboard')
    expect(run.tool_calls.map((c) => [c.name, c.is_error, c.result])).toEqual([
      ['show_dashboard', false, 'Dashboard shown: 3 widgets, all green.'],
      ['readme', false, 'The dashboard shows request latency per service.'],
      ['dashboard_view', true, expect.stringContaining("Error: there is no tool named 'dashboard_view'")]
    ])
    expect(run.model_view!.app_resources).toEqual([
      { uri: CHART_URI, name: null, mime_type: null, linked_by: ['show_chart'] },
      { uri: DASHBOARD_URI, name: 'dashboard-view', mime_type: APP_MIME_TYPE, linked_by: ['refresh_dashboard', 'show_dashboard'] }
    ])
    expect(run.model_view!.app_only_tools).toEqual(['refresh_dashboard'])
    // Not one request carried the app's HTML.
    expect(JSON.stringify(llm.requests)).not.toContain('<!doctype html>')
  })
})

describe('${RUN_DIR}: state on disk per run', () => {
  const facts = { sky: 'the sky is green', grass: 'the grass is blue' }
  const scripts: Record<string, AgentScript> = Object.fromEntries(
    Object.entries(facts).map(([key, fact]) => [
      `Remember the ${key}`,
      {
        turns: [[{ name: 'remember', args: { fact } }], [{ name: 'recall', args: {} }]],
        answer: (results: string[]) => results[1]
      }
    ])
  )
  /** Passes when recall returned the run's own fact alone; `failing` cases fail whatever they recall. */
  const ownFactOnly =
    (failing: string[] = []) =>
    (answer: string, input: string) => {
      const key = Object.keys(facts).find((k) => input.includes(`the ${k}`)) as keyof typeof facts
      return !failing.includes(key) && answer === `Facts: ${facts[key]}` ? 9 : 1
    }
  const YAML = `models: [scripted/agent]
system_prompts: {d: "You help."}
cases:
  - id: sky
    prompt: Remember the sky fact, then recall everything.
    rubric: Recalls the sky fact only.
  - id: grass
    prompt: Remember the grass fact, then recall everything.
    rubric: Recalls the grass fact only.
`
  /** Where remember said it stored the fact. */
  const statePath = (run: RunResult) => /stored in (.+)\)$/.exec(run.tool_calls[0].result)?.[1] ?? ''

  test('two runs in parallel, STATE_FILE=${RUN_DIR}/state.json: each recalls only its own fact, and the directories are removed afterwards', async () => {
    const before = inBase()
    const { doc } = await evaluateYaml(YAML, scriptedBrain(scripts, ownFactOnly()), { serverConfig: modelViewConfig('${RUN_DIR}/state.json'), concurrency: '2' })
    const sky = runOf(doc, 'sky')
    const grass = runOf(doc, 'grass')
    expect(sky.tool_calls[1].result).toBe(`Facts: ${facts.sky}`)
    expect(grass.tool_calls[1].result).toBe(`Facts: ${facts.grass}`)
    expect([sky.status, grass.status]).toEqual(['passed', 'passed'])
    // Each in a directory of its own under the runner's temp directory, gone once the run ended.
    const dirs = [sky, grass].map((r) => dirname(statePath(r)))
    expect(new Set(dirs).size).toBe(2)
    for (const dir of dirs) {
      expect(dirname(dir)).toBe(runDirsBase())
      expect(existsSync(dir)).toBe(false)
    }
    expect([sky.run_dir, grass.run_dir]).toEqual([null, null])
    expect(leftSince(before)).toEqual([])
  })

  test('the negative control: one shared STATE_FILE, and the second run recalls the first run\'s fact', async () => {
    const shared = join(mkdtempSync(join(tmpdir(), 'model-view-shared-')), 'state.json')
    const { doc } = await evaluateYaml(YAML, scriptedBrain(scripts, ownFactOnly()), { serverConfig: modelViewConfig(shared), concurrency: '1' })
    expect(runOf(doc, 'sky').tool_calls[1].result).toBe(`Facts: ${facts.sky}`)
    expect(runOf(doc, 'grass').tool_calls[1].result).toBe(`Facts: ${facts.sky} | ${facts.grass}`)
    expect(runOf(doc, 'grass').status).toBe('failed')
    expect(JSON.parse(readFileSync(shared, 'utf8'))).toEqual({ facts: [facts.sky, facts.grass] })
  })

  test('the response cache replays a run whose server echoes its ${RUN_DIR}: the directory is keyed as ${RUN_DIR}, not as its fresh path', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'model-view-cache-'))
    // One endpoint for both evaluations: its URL is part of every key.
    const llm = await startScriptedLlm(scriptedBrain(scripts, ownFactOnly()))
    try {
      const once = async () => {
        const dir = mkdtempSync(join(tmpdir(), 'model-view-'))
        writeFileSync(join(dir, 'evals.yaml'), YAML)
        const values = { baseUrl: llm.url, conformance: 'off', serverConfig: modelViewConfig('${RUN_DIR}/state.json'), concurrency: '2', cache: 'read-write', cacheDir }
        return evaluate(prepare(runOptions(dir, values), {}))
      }
      const first = await once()
      expect(first.summary.cache).toMatchObject({ hits: 0 })
      const asked = llm.requests.length
      const second = await once()
      // Fresh directories again (the server said so in its answers), and not one request reached the model.
      expect(statePath(runOf(second, 'sky'))).not.toBe(statePath(runOf(first, 'sky')))
      expect(llm.requests.length).toBe(asked)
      expect(second.summary.cache).toMatchObject({ misses: 0, hits: asked })
      expect(second.runs.map((r) => r.status)).toEqual(['passed', 'passed'])
    } finally {
      await llm.close()
    }
  })

  test('$${RUN_DIR} alone (no ${RUN_DIR} anywhere) reaches the server as a literal ${RUN_DIR}: no directory is made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'model-view-literal-'))
    const before = inBase()
    const { doc } = await evaluateYaml(YAML, scriptedBrain(scripts, ownFactOnly()), { serverConfig: modelViewConfig(join(dir, '$${RUN_DIR}.json')), concurrency: '1', filter: 'sky' })
    expect(statePath(runOf(doc, 'sky'))).toBe(join(dir, '${RUN_DIR}.json'))
    expect(JSON.parse(readFileSync(join(dir, '${RUN_DIR}.json'), 'utf8'))).toEqual({ facts: [facts.sky] })
    expect(leftSince(before)).toEqual([])
  })

  test('the CLI says where it kept the failed runs\' directories (--keep-run-dirs), and says nothing when none was kept', async () => {
    const llm = await startScriptedLlm(scriptedBrain(scripts, ownFactOnly(['grass'])))
    try {
      const dir = mkdtempSync(join(tmpdir(), 'model-view-cli-'))
      writeFileSync(join(dir, 'evals.yaml'), YAML)
      const cli = (extra: string[]) =>
        runCli(['--server-config', modelViewConfig('${RUN_DIR}/state.json'), '--eval-cases', join(dir, 'evals.yaml'), '--base-url', llm.url, '--api-key', 'k', '--conformance', 'off', '--output', join(dir, 'r.json'), '--report', join(dir, 'r.md'), '--journal', join(dir, 'j.jsonl'), ...extra])
      const kept = await cli(['--keep-run-dirs'])
      expect(kept.stdout).toContain(`Run dirs: ${runDirsBase()} (kept for 1 failed run, --keep-run-dirs)\n`)
      const doc = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as ResultsDocument
      rmSync(runOf(doc, 'grass').run_dir!, { recursive: true })
      expect((await cli([])).stdout).not.toContain('Run dirs:')
    } finally {
      await llm.close()
    }
  })

  test.each([true, false])('keep_run_dirs %s with a failing run: the failed run\'s directory is kept (and named in run_dir) only when asked; a passing run\'s never', async (keep) => {
    const before = inBase()
    const { doc } = await evaluateYaml(YAML, scriptedBrain(scripts, ownFactOnly(['grass'])), {
      serverConfig: modelViewConfig('${RUN_DIR}/state.json'),
      concurrency: '2',
      ...(keep ? { keepRunDirs: 'true' } : {})
    })
    const sky = runOf(doc, 'sky')
    const grass = runOf(doc, 'grass')
    expect([sky.status, grass.status]).toEqual(['passed', 'failed'])
    expect(sky.run_dir).toBeNull()
    expect(existsSync(dirname(statePath(sky)))).toBe(false)
    const kept = leftSince(before)
    if (keep) {
      expect(grass.run_dir).toBe(dirname(statePath(grass)))
      expect(dirname(grass.run_dir!)).toBe(runDirsBase())
      expect(kept).toEqual([grass.run_dir!.split('/').at(-1)])
      expect(JSON.parse(readFileSync(join(grass.run_dir!, 'state.json'), 'utf8'))).toEqual({ facts: [facts.grass] })
    } else {
      expect(grass.run_dir).toBeNull()
      expect(existsSync(dirname(statePath(grass)))).toBe(false)
      expect(kept).toEqual([])
    }
  })
})

describe('server-memory with MEMORY_FILE_PATH=${RUN_DIR}/memory.jsonl', () => {
  const people = { Alice: 'likes tea', Bob: 'likes chess' }
  const scripts: Record<string, AgentScript> = Object.fromEntries(
    Object.entries(people).map(([name, observation]) => [
      `Remember ${name}`,
      {
        turns: [[{ name: 'create_entities', args: { entities: [{ name, entityType: 'person', observations: [observation] }] } }], [{ name: 'read_graph', args: {} }]],
        answer: (results: string[]) => `The graph: ${results[1]}`
      }
    ])
  )
  const yaml = `models: [scripted/agent]
system_prompts: {d: "You help."}
cases:
  - id: alice
    prompt: Remember Alice, then read the whole graph.
    rubric: Shows Alice only.
  - id: bob
    prompt: Remember Bob, then read the whole graph.
    rubric: Shows Bob only.
`
  const entitiesOf = (run: RunResult) => (JSON.parse(run.tool_calls[1].result) as { entities: { name: string }[] }).entities.map((e) => e.name)

  test('two runs in parallel: each creates an entity, reads the graph, and sees only its own', async () => {
    const before = inBase()
    const serverConfig = JSON.stringify({ command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: '${RUN_DIR}/memory.jsonl' } })
    const { doc } = await evaluateYaml(yaml, scriptedBrain(scripts, passAll), { serverConfig, concurrency: '2' })
    expect(doc.runs.map((r) => [r.case_id, r.tool_calls.map((c) => [c.name, c.is_error])])).toEqual([
      ['alice', [['create_entities', false], ['read_graph', false]]],
      ['bob', [['create_entities', false], ['read_graph', false]]]
    ])
    expect(entitiesOf(runOf(doc, 'alice'))).toEqual(['Alice'])
    expect(entitiesOf(runOf(doc, 'bob'))).toEqual(['Bob'])
    expect(leftSince(before)).toEqual([])
  })

  test('the negative control: one shared MEMORY_FILE_PATH, and the second run sees the first run\'s entity', async () => {
    const shared = join(mkdtempSync(join(tmpdir(), 'model-view-memory-')), 'memory.jsonl')
    const serverConfig = JSON.stringify({ command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: shared } })
    const { doc } = await evaluateYaml(yaml, scriptedBrain(scripts, passAll), { serverConfig, concurrency: '1' })
    expect(entitiesOf(runOf(doc, 'alice'))).toEqual(['Alice'])
    expect(entitiesOf(runOf(doc, 'bob'))).toEqual(['Alice', 'Bob'])
  })
})

describe('tool_error_patterns', () => {
  const scripts: Record<string, AgentScript> = {
    'Find a charting library': {
      turns: [[{ name: 'search_libraries', args: { query: 'fail' } }], [{ name: 'search_libraries', args: { query: 'charts' } }]],
      answer: 'charts-core'
    },
    'Read the service log': { turns: [[{ name: 'read_log', args: { size: 20_000 } }]], answer: 'Read it.' }
  }
  const CASES = `  - id: search
    prompt: Find a charting library.
    rubric: Names one.
    required_tools: [search_libraries]
  - id: log
    prompt: Read the service log.
    rubric: Says it read it.
`
  const toolTelemetry = (doc: ResultsDocument, name: string) => doc.telemetry!.tools.find((t) => t.name === name)

  test('a plain-text failure matching a pattern counts as a tool error everywhere; is_error stays what the server said; the full text is matched, not what the model saw', async () => {
    const extra = 'models: [scripted/agent]\nmax_tool_result_chars: 5000\ntool_error_patterns: ["^error searching", "LOG-TAIL$"]\n'
    const { doc } = await evaluateWith({ suite: suiteOf(CASES, extra), server: PER_RUN_STATE, responder: scriptedBrain(scripts, passAll) })
    const [failed, found] = runOf(doc, 'search').tool_calls
    expect(failed).toMatchObject({ result: SEARCH_FAILURE, is_error: false, error_pattern: '^error searching' })
    expect(found.error_pattern).toBeUndefined()
    // The model saw the first 5,000 characters; LOG-TAIL is at the end of the server's 20,000.
    expect(runOf(doc, 'log').tool_calls[0]).toMatchObject({ is_error: false, error_pattern: 'LOG-TAIL$', cut: { shown_chars: 5000 } })

    // 2 of 3 calls, rounded to 4 places as every rate is.
    expect(doc.metrics!.overall.tool_error_rate).toBe(0.6667)
    expect(doc.summary.tool_errors).toBe(2)
    expect(toolTelemetry(doc, 'search_libraries')).toMatchObject({ calls: 2, errors: 1 })
    expect(toolTelemetry(doc, 'read_log')).toMatchObject({ calls: 1, errors: 1 })
  })

  test('without the patterns the same results are no tool errors', async () => {
    const { doc } = await evaluateWith({ suite: suiteOf(CASES, 'models: [scripted/agent]\nmax_tool_result_chars: 5000\n'), server: PER_RUN_STATE, responder: scriptedBrain(scripts, passAll) })
    const calls = doc.runs.flatMap((r) => r.tool_calls)
    expect(calls.map((c) => [c.name, c.is_error, c.error_pattern])).toEqual([
      ['search_libraries', false, undefined],
      ['search_libraries', false, undefined],
      ['read_log', false, undefined]
    ])
    expect(doc.metrics!.overall.tool_error_rate).toBe(0)
    expect(doc.summary.tool_errors).toBe(0)
    expect(toolTelemetry(doc, 'search_libraries')).toMatchObject({ calls: 2, errors: 0 })
  })
})
