import { describe, expect, test } from '@jest/globals'
import { XMLParser } from 'fast-xml-parser'
import { conversationShape } from '../__fixtures__/report-shapes.js'
import { renderComment } from '../src/report/comment.js'
import { roundLines } from '../src/report/input-rounds.js'
import { formatProgressLine } from '../src/report/progress.js'
import { renderJUnit } from '../src/report/junit.js'
import { renderMarkdownReport } from '../src/report/markdown.js'
import { failureReasons } from '../src/report/reasons.js'
import type { InputRound, ResultsDocument, RunResult } from '../src/results/types.js'
import { gfm, seen } from '../__fixtures__/rendered.js'


const CONTEXT = { marker: '<!-- mcp-server-evals:sticky:k -->', links: {} }
const runOf = (doc: ResultsDocument, id: string) => doc.runs.find((r) => r.case_id === id)!
/** A run's <details> block in the report, from its summary to the next run's. */
function detailsOf(report: string, run: RunResult): string {
  const start = report.indexOf(`<summary id="${run.case_id}-`)
  expect(start).toBeGreaterThan(-1)
  const next = report.indexOf('<summary id="', start + 1)
  return report.slice(start, next < 0 ? undefined : next)
}

describe('a multi-turn run in the report', () => {
  const doc = conversationShape()
  const report = renderMarkdownReport(doc)

  test('scripted turns: each turn with its verdict, the user message, the answer, the judge and its calls; how the dialogue ended', () => {
    const details = detailsOf(report, runOf(doc, 'plan-then-book'))
    expect(details).toContain('##### Dialogue ✅ — 2 scripted turns; every scripted turn ran')
    expect(details).toContain('**Turn 1** ✅ · judge 90% \\(threshold 70%\\) · checks 1/1 · 1 tool call')
    expect(details).toContain('**Turn 2** ✅ · judge 80% \\(threshold 70%\\) · checks 1/1 · 1 tool call')
    expect(details).toContain('> **User**\n>\n> Book the cheapest one\\.\n>\n> **Assistant**\n>\n> Booked NH106 for $812\\. Your reference is QX7T2P\\.')
    expect(details).toContain('- Tool call `book_flight` `{"flight_id":"NH106"}`')
    expect(details).toContain('##### Judge (whole dialogue) — 90%')
    // The turns show every user message: no separate Query, no Final answer that repeats the last turn.
    expect(details).not.toContain('##### Query')
    expect(details).not.toContain('##### Final answer')
    // Turn 1's calls are listed under turn 1 only.
    const turn2 = details.indexOf('**Turn 2**')
    expect(details.indexOf('search_flights')).toBeLessThan(turn2)
    expect(details.indexOf('- Tool call `book_flight`')).toBeGreaterThan(turn2)
  })

  test('the simulated user: its goal, its model and tokens, its messages marked, and the end at max_turns', () => {
    const details = detailsOf(report, runOf(doc, 'refund-damaged-order'))
    expect(details).toContain('##### Goal (simulated user)\n\n> Get a refund for order 1042, which arrived damaged\\.')
    expect(details).toContain('##### Dialogue — 3 turns with a simulated user; max_turns reached (3 user messages) before the simulated user said its goal was reached')
    expect(details).toContain('_The user was played by `openai/gpt-4o-mini` · 1,556 tokens (counted with the judge\'s)._')
    expect(details).toContain('**Turn 2** · simulated · 0 tool calls')
    expect(details).toContain('> **User** (simulated)')
    expect(details).toContain('**User** · turn 3 · simulated')
    expect(details).toContain('- Tool call `refund_order` `{"order_id":"1042","reason":"damaged"}` → error')
  })

  test('MRTR rounds: the request id, what was asked, who answered and how, the retry and the echoed requestState; a declined one visible', () => {
    const details = detailsOf(report, runOf(doc, 'order-needs-address'))
    const text = seen(details)
    expect(text).toContain('Server input ✅')
    expect(text).toContain('Declared: elicitation, sampling · expected: elicitation · asked: elicitation, sampling · 2 rounds · 1 elicitation no rule matched (declined)')
    expect(text).toContain("place_order (call 1) round 1: input_required (id 7) → elicitation/create “Please give your delivery address” → rule 1 (match 'address'): accept {street, city} → retry id 8, requestState echoed ✅")
    expect(text).toContain('round 2: input_required (id 8), 2 requests → retry id 9, requestState echoed ✅ gift : elicitation/create “Gift-wrap the skillets for $4?” → no rule matched: declined')
    expect(text).toContain('note : sampling/createMessage “Write a one-line note for the packing slip.” → the model under test (openai/gpt-4o-mini): “Two cast-iron skillets, handle with care.”')
  })

  test('legacy server requests: their ids, the roots listed, and the problem with the accepted content, next to the failed verdict', () => {
    const details = detailsOf(report, runOf(doc, 'clean-workspace'))
    const text = seen(details)
    expect(text).toContain('Server input ❌')
    expect(text).toContain("❌ delete_build_folders: the content of rule 1 (match 'confirm') does not match the requested schema: confirm must be boolean")
    expect(text).toContain("round 1: server request roots/list (id 0) → the case's roots: file:///workspace")
    expect(text).toContain("Outside any call (the server asked on its own): round 1: server request roots/list (id 0)")
    expect(text).toContain("delete_build_folders (call 1) round 1: server request elicitation/create (id 1) “Confirm deleting 3 build folders?” → rule 1 (match 'confirm'): accept, sent as cancel — ⚠ the content of rule 1 (match 'confirm') does not match the requested schema: confirm must be boolean")
    // The verdict's reasons and the calls are two lists, not one.
    const html = gfm.render(details)
    expect(html.match(/<ul>/g)?.length).toBeGreaterThanOrEqual(2)
  })

  test('an input_required round without a retry, or whose retry lost requestState, says so', () => {
    const round: InputRound = { round: 3, via: 'input_required', request_id: 'r-3', retry_id: null, request_state: 'abc', request_state_echoed: null, exchanges: [] }
    expect(roundLines(round)).toEqual(['- round 3: input_required (id r\\-3), no inputRequests → no retry (the rounds ran out, or the call failed)'])
    const lost = { ...round, retry_id: 4, request_state_echoed: false }
    expect(roundLines(lost)[0]).toContain('→ retry id 4, requestState not echoed byte for byte ❌')
    const invented = { ...round, retry_id: 4, request_state: null, request_state_echoed: false }
    expect(roundLines(invented)[0]).toContain('→ retry id 4, with a requestState the server never sent ❌')
  })

  test('a single-turn run without server input renders as before: Query, Final answer, Judge, and no new sections', () => {
    const plain: RunResult = { ...runOf(doc, 'order-needs-address'), tool_calls: runOf(doc, 'order-needs-address').tool_calls.map(({ input_rounds: _, ...c }) => c), inputs: null }
    const details = detailsOf(renderMarkdownReport({ ...doc, runs: [plain] }), plain)
    expect(details).toMatch(/##### Query\n\n> Order two skillets for me\\.\n\n##### Final answer\n\n> Ordered two skillets/)
    expect(details).not.toContain('Server input')
    expect(details).not.toContain('Dialogue')
    expect(details).toContain('**User**\n\n> Order two skillets')
  })
})

describe('why a conversation or its server input failed', () => {
  const doc = conversationShape()

  test('the overall rubric, and the simulated user that never reached its goal', () => {
    expect(failureReasons(runOf(doc, 'refund-damaged-order'))).toEqual([
      'whole dialogue: judge 30% < threshold 70%: No refund was issued: the assistant kept asking for details the user had given.',
      'the simulated user never said its goal was reached (max_turns: 3)'
    ])
  })

  test('the server input verdict', () => {
    expect(failureReasons(runOf(doc, 'clean-workspace'))).toEqual([
      "server input: delete_build_folders: the content of rule 1 (match 'confirm') does not match the requested schema: confirm must be boolean"
    ])
  })

  test('a failing turn is named, with its judge and its checks; without an overall rubric its judge is not said twice', () => {
    const run = runOf(doc, 'plan-then-book')
    const dialogue = run.dialogue!
    const [first, second] = dialogue.turns
    const failedTurn = {
      ...second,
      passed: false,
      judge: second.judge && { ...second.judge, score: 0.4, reason: 'Never gives a booking reference.' },
      tool_assertions: { passed: false, checks: [{ tool: 'book_flight', passed: false, reason: 'not called', expected_args: { flight_id: 'any' } }] }
    }
    const failed: RunResult = {
      ...run,
      status: 'failed',
      success: false,
      rubric_passed: false,
      judge: null,
      metrics: run.metrics.map((m) => ({ ...m, score: 0.4, success: false, reason: 'Turn 2: Never gives a booking reference.' })),
      dialogue: { ...dialogue, turns: [first, failedTurn], turns_passed: false }
    }
    const reasons = failureReasons(failed)
    expect(reasons).toEqual(['turn 2: judge 40% < threshold 70%: Never gives a booking reference.', 'turn 2: book_flight: not called (expected {"flight_id":"any"})'])
    const report = renderMarkdownReport({ ...doc, runs: [failed] })
    expect(report).toContain('##### Dialogue ❌ — 2 scripted turns; every scripted turn ran')
    expect(report).toContain('**Turn 2** ❌ · judge 40% \\(threshold 70%\\) · checks 0/1 · 1 tool call')
    expect(report).toContain('- ❌ `book_flight` — not called (expected `{"flight_id":"any"}`)')
    expect(report).not.toContain('##### Judge (whole dialogue)')
    // A turn that ended without an answer stops the dialogue, and says why.
    const stopped: RunResult = { ...failed, dialogue: { ...failed.dialogue!, ended: 'stopped', turns: [first, { ...failedTurn, final_output: null, stop_reason: 'max_steps', judge: null, tool_assertions: null }] } }
    expect(failureReasons(stopped)).toEqual(['turn 2: no final answer (max_steps: the model used every LLM call it was allowed)'])
    expect(renderMarkdownReport({ ...doc, runs: [stopped] })).toContain('stopped: turn 2 ended without a final answer (max_steps: the model used every LLM call it was allowed)')
  })

  test('JUnit: the failing run says why in its message, and its body shows the turns and how the dialogue ended', () => {
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(renderJUnit(doc)) as {
      testsuites: { testsuite: { name: string; testcase: { name: string; failure?: { message: string; '#text': string } }[] }[] }
    }
    const behaviour = parsed.testsuites.testsuite.find((s) => s.name === 'behaviour')!
    const byName = new Map(behaviour.testcase.map((c) => [c.name, c]))
    expect(byName.get('refund-damaged-order')?.failure?.message).toBe(
      'whole dialogue: judge 30% < threshold 70%: No refund was issued: the assistant kept asking for details the user had given.; the simulated user never said its goal was reached (max_turns: 3)'
    )
    const body = byName.get('refund-damaged-order')?.failure?.['#text'] ?? ''
    expect(body).toContain('dialogue (simulated user openai/gpt-4o-mini): max_turns reached (3 user messages) before the simulated user said its goal was reached')
    expect(body).toContain('turn 2 (simulated): 0 tool calls\n  user: The skillet handle is cracked.\n  answer: Thanks. Could you confirm the order number?')
    expect(byName.get('clean-workspace')?.failure?.message).toBe("server input: delete_build_folders: the content of rule 1 (match 'confirm') does not match the requested schema: confirm must be boolean")
    expect(byName.get('plan-then-book')?.failure).toBeUndefined()
  })

  test('the log line of each run says how its turns and its server input went', () => {
    const lines = doc.runs.map((r, i) => formatProgressLine(r, i + 1, doc.runs.length))
    expect(lines[0]).toMatch(/^\[1\/4\] ✓ plan-then-book · openai\/gpt-4o-mini · default — judge 90%, turns 2\/2 passed \(script_done\) \(/)
    expect(lines[1]).toMatch(/^\[2\/4\] ✗ refund-damaged-order · .* — judge 30%, turns 3\/3 passed \(max_turns\) \(/)
    expect(lines[2]).toContain('— judge 90%, server input ✓ (2 rounds) (')
    expect(lines[3]).toContain('— judge 80%, server input ✗ (2 rounds) (')
  })

  test('the comment lists both failures with their reasons', () => {
    const body = renderComment(doc, CONTEXT)
    expect(body).toContain('- ✗ `refund-damaged-order` · `openai/gpt-4o-mini` · default — whole dialogue: judge 30% &lt; threshold 70%')
    expect(body).toContain("- ✗ `clean-workspace` · `openai/gpt-4o-mini` · default — server input: delete\\_build\\_folders: the content of rule 1 \\(match 'confirm'\\) does not match")
  })
})

describe('a conversation that stopped or was cut short', () => {
  const doc = conversationShape()
  const refund = runOf(doc, 'refund-damaged-order')
  const plan = runOf(doc, 'plan-then-book')

  test('every turn answered, yet the simulated user wrote no next message: the report, JUnit and the log line say so', () => {
    const [first] = refund.dialogue!.turns
    const failedUser: RunResult = {
      ...refund,
      status: 'error',
      success: false,
      judge: null,
      error: { stage: 'llm', message: 'the simulated user (openai/gpt-4o-mini) failed: 429 rate limited' },
      dialogue: { ...refund.dialogue!, ended: 'stopped', turns: [first], turns_passed: false }
    }
    const words = 'stopped after turn 1: the simulated user did not write the next message (its error, a time limit or a cancel)'
    const failedDoc = { ...doc, runs: [failedUser] }
    expect(detailsOf(renderMarkdownReport(failedDoc), failedUser)).toContain(`##### Dialogue — 1 turn with a simulated user; ${words}`)
    expect(renderJUnit(failedDoc)).toContain(`dialogue (simulated user openai/gpt-4o-mini): ${words}`)
    expect(formatProgressLine(failedUser, 1, 1)).toContain(', turns 1/1 passed (stopped after turn 1: the simulated user did not write the next message) (')
    // Before its first message: no turn at all.
    const never: RunResult = { ...failedUser, dialogue: { ...failedUser.dialogue!, turns: [] } }
    expect(renderMarkdownReport({ ...doc, runs: [never] })).toContain('stopped before the first turn: the simulated user did not write the next message (its error')
    // A turn that ran out of steps is still named as such.
    const ranOut: RunResult = { ...failedUser, status: 'failed', error: null, dialogue: { ...failedUser.dialogue!, turns: [{ ...first, final_output: null, stop_reason: 'max_steps', passed: false }] } }
    expect(formatProgressLine(ranOut, 1, 1)).toContain('(stopped in turn 1: max_steps)')
    expect(detailsOf(renderMarkdownReport({ ...doc, runs: [ranOut] }), ranOut)).toContain('_No final answer: max_steps: the model used every LLM call it was allowed._')
    // An empty answer is an answer: the turn did not stop for want of one.
    const empty: RunResult = { ...ranOut, dialogue: { ...ranOut.dialogue!, turns: [{ ...first, final_output: '' }] } }
    const emptyDetails = detailsOf(renderMarkdownReport({ ...doc, runs: [empty] }), empty)
    expect(emptyDetails).toContain('_The answer was empty._')
    expect(emptyDetails).not.toContain('No final answer')
  })

  test('a cancelled run marks no turn it never scored, nor the dialogue: neither ✅ nor ❌', () => {
    // Cancelled while the judge was asked: both turns answered, no verdict kept; turn 1's golden check never ran.
    const turns = plan.dialogue!.turns.map((t) => ({ ...t, judge: null, golden_assertions: null, passed: false }))
    const cancelled: RunResult = {
      ...plan,
      status: 'cancelled',
      success: false,
      judge: null,
      cancelled: { at: '2026-11-30T10:00:00.000Z', signal: 'SIGINT', waiting_for: 'the judge (openai/gpt-4o-mini)' },
      dialogue: { ...plan.dialogue!, turns, turns_passed: false }
    }
    const details = detailsOf(renderMarkdownReport({ ...doc, runs: [cancelled] }), cancelled)
    expect(details).toContain('##### Dialogue — 2 scripted turns; every scripted turn ran')
    expect(details).toContain('**Turn 1** · 1 tool call')
    // Turn 2's required_tools held: its check is shown, with no verdict mark on the turn.
    expect(details).toContain('**Turn 2** · checks 1/1 · 1 tool call')
    expect(details).not.toMatch(/\*\*Turn \d\*\* [✅❌]/)
    // A turn the cancel cut short has no mark either; a check that failed in a cancelled run still does.
    const cut: RunResult = { ...cancelled, dialogue: { ...cancelled.dialogue!, ended: 'stopped', turns: [turns[0], { ...turns[1], final_output: null, stop_reason: 'cancelled', tool_assertions: null }] } }
    expect(renderMarkdownReport({ ...doc, runs: [cut] })).toContain('**Turn 2** · 1 tool call')
    const failedCheck = { passed: false, checks: [{ tool: 'book_flight', passed: false, reason: 'not called', expected_args: null }] }
    const withFailure: RunResult = { ...cancelled, dialogue: { ...cancelled.dialogue!, turns: [turns[0], { ...turns[1], tool_assertions: failedCheck }] } }
    const failing = detailsOf(renderMarkdownReport({ ...doc, runs: [withFailure] }), withFailure)
    expect(failing).toContain('##### Dialogue ❌')
    expect(failing).toContain('**Turn 2** ❌')
  })
})

describe('hostile text in a user turn, an elicitation message and an answered_by stays text', () => {
  const HOSTILE = 'Book it `now` | <script>alert(1)</script>\n\n# pwned\n- [x](https://evil.example) @octocat ```'
  const doc = conversationShape()
  const scripted = runOf(doc, 'plan-then-book')
  const modern = runOf(doc, 'order-needs-address')
  const hostileTurns = scripted.dialogue!.turns.map((t) => ({ ...t, user: HOSTILE, final_output: HOSTILE }))
  const [place] = modern.tool_calls
  const rounds = place.input_rounds!.map((r) => ({ ...r, request_id: HOSTILE, exchanges: r.exchanges.map((e) => ({ ...e, key: HOSTILE, summary: HOSTILE, answered_by: HOSTILE, problem: HOSTILE })) }))
  const hostile: ResultsDocument = {
    ...doc,
    runs: [
      { ...scripted, dialogue: { ...scripted.dialogue!, turns: hostileTurns }, conversation: scripted.conversation.map((e) => (e.role === 'user' ? { ...e, content: HOSTILE } : e)) },
      { ...modern, tool_calls: [{ ...place, input_rounds: rounds }], inputs: { ...modern.inputs!, passed: false, reasons: [HOSTILE] } }
    ]
  }

  test.each([
    ['the report', () => renderMarkdownReport(hostile)],
    ['the comment', () => renderComment(hostile, CONTEXT)]
  ])('%s: no markup, no links, no mentions, no heading, no broken list', (_, render) => {
    const markdown = render()
    const html = gfm.render(markdown)
    expect(html).not.toContain('<script')
    expect(html).not.toMatch(/<h1>\s*pwned/)
    expect(html).not.toContain('href="https://evil.example')
    // Code (spans and blocks) shows it literally, as GitHub never links inside code; prose never.
    expect(html.replace(/<pre>[\s\S]*?<\/pre>/g, '').replace(/<code>[\s\S]*?<\/code>/g, '')).not.toContain('@octocat')
  })

  test('a round stays one list item, its server text folded onto its line', () => {
    const report = renderMarkdownReport(hostile)
    const line = report.split('\n').find((l) => l.startsWith('  - round 1: input_required'))!
    expect(line).toContain('“Book it \\`now\\` \\| &lt;script&gt;alert\\(1\\)&lt;/script&gt; \\# pwned \\- \\[x\\]\\(https&#58;//')
    expect(gfm.render(report)).not.toMatch(/<h1>\s*pwned/)
    // Each round and each exchange is a list item of its own: two rounds, two exchanges in round 2.
    const details = detailsOf(report, modern)
    const items = gfm.render(details.slice(details.indexOf('Rounds, call by call:'))).match(/<li>/g) ?? []
    expect(items.length).toBeGreaterThanOrEqual(5)
  })

  test('JUnit escapes it', () => {
    const failing = { ...hostile, runs: hostile.runs.map((r) => ({ ...r, status: 'failed' as const, success: false })) }
    const xml = renderJUnit({ ...failing, groups: failing.groups.map((g) => ({ ...g, success: false, passed: 0 })) })
    expect(xml).not.toContain('<script>')
    expect(xml).toContain('&lt;script&gt;')
  })
})
