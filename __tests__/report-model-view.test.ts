import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { renderComment } from '../src/report/comment.js'
import { renderJUnit } from '../src/report/junit.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import { appsNotice, modelViewLines, modelViewNotice, toolCallNote, toolCallNoteHtml } from '../src/report/model-view.js'
import type { DialogueResult, MediaRecord, ModelView, ResultCut, ResultsDocument, RunResult, ToolCallResult } from '../src/results/types.js'
import { upgradeDocument } from '../src/aggregate/upgrade-document.js'
import { gfm, seen } from '../__fixtures__/rendered.js'

/** The golden results document (version 8), read as the report reads a saved one (not through the harness: these tests need no engine). */
const golden = (): ResultsDocument => upgradeDocument(JSON.parse(readFileSync(new URL('../__fixtures__/golden/results.json', import.meta.url), 'utf8')))!

/** A model view with nothing to say: every count 0, nothing listed. */
const quietView = (over: Partial<ModelView> = {}): ModelView => ({
  max_tool_result_chars: 100_000,
  vision: false,
  vision_source: 'none',
  vision_pattern: null,
  cut_results: 0,
  images_sent: 0,
  images_as_text: 0,
  audio_as_text: 0,
  app_resources: [],
  app_only_tools: [],
  notes: [],
  ...over
})

const call = (name: string, over: Partial<ToolCallResult> = {}): ToolCallResult => ({ name, args: {}, result: 'ok', is_error: false, latency_ms: 12, schema_valid: true, ...over })
const CUT: ResultCut = { total_chars: 300_000, total_bytes: 300_000, shown_chars: 5_000, kept_chars: 262_144 }
const PNG_SENT: MediaRecord = { type: 'image', mime_type: 'image/png', bytes: 12_595, sent: true, reason: null }
const NOT_VISION = 'openai/gpt-3.5-turbo is not known to take images: set vision: true on it under models:, or add a pattern to vision_models:'
const PNG_AS_TEXT: MediaRecord = { type: 'image', mime_type: 'image/png', bytes: 2_048, sent: false, reason: `${NOT_VISION}.` }
const WAV: MediaRecord = { type: 'audio', mime_type: 'audio/wav', bytes: 500, sent: false, reason: 'audio is never sent to a model' }

/** The golden document's first run (a single-turn run with one call), changed by `over`. */
function runWith(over: Partial<RunResult>): RunResult {
  return { ...golden().runs[0], ...over }
}

/** A document whose runs are the golden ones, each changed by `change` (by position). */
function docWith(change: (run: RunResult, i: number) => RunResult): ResultsDocument {
  const doc = golden()
  return { ...doc, runs: doc.runs.map(change) }
}


/** A run's <details> block in the report, from its summary to the next run's. */
function detailsOf(report: string, run: RunResult): string {
  const start = report.indexOf(`<summary id="${run.case_id}-`)
  expect(start).toBeGreaterThan(-1)
  const next = report.indexOf('<summary id="', start + 1)
  return report.slice(start, next < 0 ? undefined : next)
}

describe('nothing to say: nothing rendered, the report unchanged', () => {
  test('a run whose model saw everything, or that never started, has no block; its calls no note', () => {
    expect(modelViewLines(runWith({ model_view: quietView() }))).toEqual([])
    expect(modelViewLines(runWith({ model_view: quietView({ vision: true, vision_source: 'known', vision_pattern: 'gpt-4o' }) }))).toEqual([])
    expect(modelViewLines(runWith({ model_view: null, run_dir: null }))).toEqual([])
    expect(toolCallNote(call('get_weather'))).toBe('')
    expect(toolCallNoteHtml(call('get_weather'))).toBe('')
    // A server's isError result is an error already: no pattern note on top.
    expect(toolCallNote(call('get_weather', { is_error: true }))).toBe('')
  })

  test('the notice is empty when no model saw a cut result or an image it could have been sent', () => {
    expect(modelViewNotice(golden())).toEqual([])
    expect(modelViewNotice(docWith((r) => ({ ...r, model_view: null })))).toEqual([])
    // Sent images, and placeholders to a vision model (a format or size it cannot take), are not the notice's business.
    expect(modelViewNotice(docWith((r) => ({ ...r, model_view: quietView({ vision: true, vision_source: 'models', images_sent: 2, images_as_text: 1 }) })))).toEqual([])
  })

  test('the same report, byte for byte, for a quiet model view, none, or a document from before version 7', () => {
    const asIs = renderMarkdownReport(golden())
    expect(renderMarkdownReport(docWith((r) => ({ ...r, model_view: quietView() })))).toBe(asIs)
    expect(renderMarkdownReport(docWith((r) => ({ ...r, model_view: null, run_dir: null })))).toBe(asIs)
    const older = docWith((r) => {
      const { model_view: _view, run_dir: _dir, ...rest } = r
      return rest as RunResult
    })
    expect(renderMarkdownReport(older)).toBe(asIs)
    expect(asIs).not.toContain('What the model saw')
    expect(renderJUnit(docWith((r) => ({ ...r, model_view: quietView() })))).toBe(renderJUnit(golden()))
  })
})

describe('what the model saw, in the run details', () => {
  const run = runWith({
    tool_calls: [
      call('read_text_file', { cut: CUT }),
      call('screenshot', { media: [PNG_SENT] }),
      call('screenshot', { media: [PNG_AS_TEXT, WAV] }),
      call('search_libraries', { error_pattern: '^Error searching' }),
      call('dump', { cut: { total_chars: 400_000, total_bytes: 400_000, shown_chars: 400_000, kept_chars: 262_144 } })
    ],
    model_view: quietView({
      cut_results: 1,
      images_sent: 1,
      images_as_text: 1,
      audio_as_text: 1,
      app_resources: [
        { uri: 'ui://weather/view.html', name: 'Weather view', mime_type: 'text/html;profile=mcp-app', linked_by: ['get_forecast', 'get_weather'] },
        { uri: 'ui://orphan/app', name: null, mime_type: null, linked_by: ['show_app'] }
      ],
      app_only_tools: ['refresh_view'],
      notes: ['1 tool result was cut to 100,000 characters before the model saw it (max_tool_result_chars).', 'The final answer given to the judge was cut to 100,000 characters.']
    }),
    run_dir: '/tmp/mcp-server-evals-run-dirs/run-3-abc'
  })
  const lines = modelViewLines(run)

  test('a heading, the notes as one paragraph, escaped', () => {
    expect(lines.slice(0, 4)).toEqual([
      '##### What the model saw',
      '',
      '1 tool result was cut to 100,000 characters before the model saw it \\(max\\_tool\\_result\\_chars\\)\\. The final answer given to the judge was cut to 100,000 characters\\.',
      ''
    ])
  })

  test('each cut call: what the model saw and what the record keeps', () => {
    expect(lines).toContain('- `read_text_file` (call 1): the model saw 5,000 of 300,000 characters; the record keeps 262,144')
    // No limit (0): the model saw it all, the record still keeps its budget.
    expect(lines).toContain('- `dump` (call 5): the model saw all 400,000 characters; the record keeps 262,144')
    expect(modelViewLines(runWith({ tool_calls: [call('big', { cut: { ...CUT, kept_chars: 300_000 } })], model_view: quietView() }))).toContain(
      '- `big` (call 1): the model saw 5,000 of 300,000 characters; the record keeps all of them'
    )
  })

  test('each image and audio block: its type, MIME type and size, sent or why not', () => {
    expect(lines).toContain('- `screenshot` (call 2): image `image/png`, 12.3 KiB, sent to the model')
    expect(lines).toContain(
      '- `screenshot` (call 3): image `image/png`, 2.0 KiB, shown to the model as text: openai/gpt\\-3\\.5\\-turbo is not known to take images: set vision: true on it under models:, or add a pattern to vision\\_models:'
    )
    expect(lines).toContain('- `screenshot` (call 3): audio `audio/wav`, 500 B, shown to the model as text')
  })

  test('a result a tool_error_patterns entry made a tool error, with the pattern', () => {
    expect(lines).toContain('- `search_libraries` (call 4): counted as a tool error, its text matched the tool_error_patterns entry `^Error searching`')
  })

  test('the app resources and app-only tools are not in a run\'s block: they are the server\'s, said once at the top', () => {
    expect(lines.join('\n')).not.toMatch(/App resource|App-only|ui:\/\//)
    const doc = docWith((r, i) => ({ ...r, model_view: i < 2 ? run.model_view : quietView() }))
    expect(appsNotice(doc)).toEqual([
      '_Not offered to the model (MCP Apps, for a host to render): the app resources `ui://orphan/app` (not in resources/list; linked by `show_app`), `ui://weather/view.html` (linked by `get_forecast`, `get_weather`); the app-only tool `refresh_view` (`_meta.ui.visibility` leaves out "model")._',
      ''
    ])
    expect(appsNotice(golden())).toEqual([])
    const report = renderMarkdownReport(doc)
    expect(report.split('_Not offered to the model (MCP Apps').length).toBe(2)
  })

  test('an image reason the run\'s notes already give is not repeated on each image line', () => {
    const reason = 'openai/gpt-3.5-turbo is not known to take images: set vision: true on it under models:, or add a pattern to vision_models:'
    const quiet = modelViewLines(runWith({ tool_calls: [call('shot', { media: [PNG_AS_TEXT] })], model_view: quietView({ images_as_text: 1, notes: [`1 image was shown to the model as a text placeholder: ${reason}.`] }) }))
    expect(quiet).toContain('- `shot` (call 1): image `image/png`, 2.0 KiB, shown to the model as text (see above)')
  })

  test('the kept run directory, as a code span, last', () => {
    expect(lines.slice(-2)).toEqual(['Run directory kept (`keep_run_dirs`): `/tmp/mcp-server-evals-run-dirs/run-3-abc`', ''])
    expect(modelViewLines(runWith({ model_view: quietView(), run_dir: '/tmp/d' }))).toEqual(['##### What the model saw', '', 'Run directory kept (`keep_run_dirs`): `/tmp/d`', ''])
  })

  test('a run with many such calls lists the first 20 and says how many more', () => {
    const many = modelViewLines(runWith({ tool_calls: Array.from({ length: 25 }, (_, i) => call(`t${i + 1}`, { cut: CUT })), model_view: quietView({ cut_results: 25 }) }))
    expect(many.filter((l) => l.startsWith('- `t'))).toHaveLength(20)
    expect(many).toContain('- … and 5 more')
  })

  test('in the report: inside the run details, before the conversation; the tool call summaries say what the model was shown', () => {
    const doc = docWith((r, i) =>
      i === 0
        ? {
            ...r,
            tool_calls: [{ ...r.tool_calls[0], cut: CUT, media: [PNG_SENT] }],
            model_view: quietView({ cut_results: 1, images_sent: 1, notes: ['1 tool result was cut to 100,000 characters before the model saw it (max_tool_result_chars).'] })
          }
        : r
    )
    const report = renderMarkdownReport(doc)
    const details = detailsOf(report, doc.runs[0])
    const block = details.indexOf('##### What the model saw')
    expect(block).toBeGreaterThan(details.indexOf('##### Judge'))
    expect(block).toBeLessThan(details.indexOf('##### Conversation'))
    // A passing run, folded inside its case, shows its calls unfolded; a run that did not pass folds each.
    expect(details).toContain('**Tool Call** `get_weather` (cut for the model: 5,000 of 300,000 characters; 1 image sent)')
    const failed = { ...doc, runs: doc.runs.map((r, i) => (i === 0 ? { ...r, status: 'failed' as const, success: false } : r)) }
    expect(detailsOf(renderMarkdownReport(failed), failed.runs[0])).toContain('<summary>Tool Call <code>get_weather</code> (cut for the model: 5,000 of 300,000 characters; 1 image sent)</summary>')
    // The other runs are as they were.
    const plain = renderMarkdownReport(golden())
    for (const other of doc.runs.slice(1)) expect(detailsOf(report, other)).toBe(detailsOf(plain, other))
  })
})

describe('the note on a tool call line', () => {
  test('cut, sent, shown as text, and a pattern error, in words', () => {
    expect(toolCallNote(call('read', { cut: CUT }))).toBe(' (cut for the model: 5,000 of 300,000 characters)')
    expect(toolCallNote(call('search', { error_pattern: '^Error searching' }))).toBe(' → error (tool_error_patterns: `^Error searching`)')
    expect(toolCallNote(call('shot', { media: [PNG_SENT] }))).toBe(' (1 image sent)')
    expect(toolCallNote(call('shot', { media: [PNG_AS_TEXT] }))).toBe(' (1 image shown as text)')
    expect(toolCallNote(call('shot', { media: [PNG_SENT, PNG_SENT, PNG_AS_TEXT, WAV] }))).toBe(' (2 images sent; 1 image shown as text; 1 audio block shown as text)')
    expect(toolCallNote(call('both', { cut: CUT, error_pattern: 'failed', media: [PNG_SENT] }))).toBe(' → error (tool_error_patterns: `failed`) (cut for the model: 5,000 of 300,000 characters; 1 image sent)')
    // Only the record was cut (no limit): the model saw it whole, nothing to say on the line.
    expect(toolCallNote(call('dump', { cut: { ...CUT, shown_chars: 300_000 } }))).toBe('')
  })

  test('in HTML for a <summary>: the pattern in <code>, entities escaped', () => {
    expect(toolCallNoteHtml(call('search', { error_pattern: '<b>Error</b> & `x`' }))).toBe(' → error (tool_error_patterns: <code>&lt;b&gt;Error&lt;/b&gt; &amp; &#96;x&#96;</code>)')
  })

  test('on a conversation turn\'s tool call line', () => {
    const base = golden().runs[0]
    const dialogue: DialogueResult = {
      kind: 'turns',
      turns: [{ index: 1, user: 'Weather?', simulated: false, final_output: 'Sunny.', stop_reason: 'final_answer', first_call: 0, calls: 1, llm_calls: 2, tool_assertions: null, golden_assertions: null, judge: null, passed: true }],
      ended: 'script_done',
      user_model: null,
      user_usage: null,
      user_latency_ms: null,
      turns_passed: true
    }
    const run: RunResult = { ...base, dialogue, tool_calls: [{ ...base.tool_calls[0], error_pattern: 'no data', cut: CUT }], model_view: quietView({ cut_results: 1 }) }
    const report = renderMarkdownReport({ ...golden(), runs: [run] })
    expect(report).toMatch(/^- Tool call `get_weather` `\{.*\}` → error \(tool_error_patterns: `no data`\) \(cut for the model: 5,000 of 300,000 characters\)$/m)
  })
})

describe('the notice at the top of the report', () => {
  test('cut results and images a model not known to take images was shown as text, summed over the runs', () => {
    const doc = docWith((r, i) => ({ ...r, model_view: quietView({ cut_results: [7, 5, 0, 0][i], images_as_text: [0, 2, 1, 0][i], vision: i === 3 }) }))
    expect(modelViewNotice(doc)).toEqual([
      '_12 tool results were cut to 100,000 characters before the model saw them (`max_tool_result_chars`); 3 images reached a model not known to take images and were shown to it as text (`vision: true` on a `models:` entry, or `vision_models:`)._',
      ''
    ])
  })

  test('the sticky comment carries the notice under its headline, and nothing for a quiet document', () => {
    const doc = docWith((r, i) => ({ ...r, model_view: quietView({ cut_results: i === 0 ? 3 : 0 }) }))
    const comment = renderComment(doc, { marker: '<!-- k -->', links: {} })
    const notice = '_3 tool results were cut to 100,000 characters before the model saw them (`max_tool_result_chars`)._'
    expect(comment).toContain(notice)
    expect(comment.indexOf(notice)).toBeLessThan(comment.indexOf('#### Did not pass'))
    expect(comment.indexOf(notice)).toBeGreaterThan(comment.indexOf('### MCP Server Evals'))
    expect(renderComment(golden(), { marker: '<!-- k -->', links: {} })).not.toContain('max_tool_result_chars')
  })

  test('singular, one part alone, and every limit named', () => {
    const one = docWith((r, i) => ({ ...r, model_view: quietView({ cut_results: i === 0 ? 1 : 0 }) }))
    expect(modelViewNotice(one)).toEqual(['_1 tool result was cut to 100,000 characters before the model saw it (`max_tool_result_chars`)._', ''])
    const image = docWith((r, i) => ({ ...r, model_view: quietView({ images_as_text: i === 0 ? 1 : 0 }) }))
    expect(modelViewNotice(image)).toEqual(['_1 image reached a model not known to take images and was shown to it as text (`vision: true` on a `models:` entry, or `vision_models:`)._', ''])
    const limits = docWith((r, i) => ({ ...r, model_view: quietView({ cut_results: 1, max_tool_result_chars: i % 2 === 0 ? 100_000 : 5_000 }) }))
    expect(modelViewNotice(limits)[0]).toContain('4 tool results were cut to 5,000 or 100,000 characters')
  })

  test('in the report: right after the header, before the behaviour evals', () => {
    const doc = docWith((r, i) => ({ ...r, model_view: quietView({ cut_results: i === 0 ? 2 : 0 }) }))
    const report = renderMarkdownReport(doc)
    const notice = report.indexOf('_2 tool results were cut')
    expect(notice).toBeGreaterThan(report.indexOf('# Eval Report'))
    expect(notice).toBeLessThan(report.indexOf('### Details'))
    expect(notice).toBeLessThan(report.indexOf('<table>'))
    expect(report).toContain('\n_2 tool results were cut to 100,000 characters before the model saw them (`max_tool_result_chars`)._\n')
    expect(gfm.render(report)).toContain('<em>2 tool results were cut to 100,000 characters before the model saw them (<code>max_tool_result_chars</code>).</em>')
  })
})

describe('hostile text from a server or a model', () => {
  const HOSTILE_URI = 'ui://x/<img src=x onerror=alert(1)>'
  const HOSTILE_TOOL = 'ev`il|`tool'
  const HOSTILE_PATTERN = '**bold** | `x` <script>'
  const base = golden().runs[0]
  const run = runWith({
    // The conversation names the hostile tool too, so its <summary> carries the note.
    conversation: base.conversation.map((e) => (e.tool_calls ? { ...e, tool_calls: e.tool_calls.map((c) => ({ ...c, name: HOSTILE_TOOL })) } : e)),
    tool_calls: [
      call(HOSTILE_TOOL, { cut: CUT, error_pattern: HOSTILE_PATTERN, media: [{ type: 'image', mime_type: 'image/<svg onload=alert(1)>', bytes: 10, sent: false, reason: 'the format <b>x</b> @octocat is not sent' }] })
    ],
    model_view: quietView({
      cut_results: 1,
      app_resources: [{ uri: HOSTILE_URI, name: '<img src=y> @octocat #12', mime_type: 'text/html</details>', linked_by: [HOSTILE_TOOL] }],
      app_only_tools: ['<script>alert(1)</script>'],
      notes: ['See ![pic](https://evil.example/p.png) <img src=z> cc @octocat']
    }),
    run_dir: '/tmp/run `dir` <b>'
  })
  const report = renderMarkdownReport({ ...golden(), runs: [run] })
  const html = gfm.render(report)

  test('renders as the same characters: no tag, image, link or mention from the text survives', () => {
    // (The report's own tables hold <b>: the text's <b> is checked as shown, below.)
    const tags = html.match(/<(img|script|svg)\b[^>]*>/g) ?? []
    expect(tags.filter((t) => !t.startsWith('<img src="https://img.shields.io/badge/'))).toEqual([])
    expect(html).not.toContain('href="https://evil.example')
    // Every <details> we open is closed by us: the text's </details> is inert.
    expect((html.match(/<details>/g) ?? []).length).toBe((html.match(/<\/details>/g) ?? []).length)
    const text = seen(report)
    for (const literal of [HOSTILE_URI, HOSTILE_TOOL, HOSTILE_PATTERN, '<script>alert(1)</script>', '/tmp/run `dir` <b>', '![pic](https://evil.example/p.png)', 'the format <b>x</b> @octocat is not sent']) {
      expect(text).toContain(literal)
    }
  })

  test('the summary of the hostile call is inert HTML (a run that did not pass folds its calls)', () => {
    const failed = renderMarkdownReport({ ...golden(), runs: [{ ...run, status: 'failed', success: false }] })
    expect(failed).toContain('<summary>Tool Call <code>ev&#96;il&#124;&#96;tool</code> → error (tool_error_patterns: <code>&#42;&#42;bold&#42;&#42; &#124; &#96;x&#96; &lt;script&gt;</code>) (cut for the model: 5,000 of 300,000 characters; 1 image shown as text)</summary>')
  })
})

describe('JUnit: a failed run names its kept run directory', () => {
  test('in the failure details; nothing when none was kept', () => {
    const doc = golden()
    const failed = doc.runs.findIndex((r) => r.status === 'failed')
    const errored = doc.runs.findIndex((r) => r.status === 'error')
    const kept = { ...doc, runs: doc.runs.map((r, i) => (i === failed ? { ...r, run_dir: '/tmp/kept/run-2' } : i === errored ? { ...r, run_dir: '/tmp/kept/run-4 <&>' } : r)) }
    const xml = renderJUnit(kept)
    expect(xml).toContain('run directory kept: /tmp/kept/run-2')
    expect(xml).toContain('run directory kept: /tmp/kept/run-4 &lt;&amp;&gt;')
    expect(renderJUnit(doc)).not.toContain('run directory kept')
  })
})
