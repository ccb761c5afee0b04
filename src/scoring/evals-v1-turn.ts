import type { AppJudgeFn } from '../apps/types.js'
import type { EvalsV1Assertion, EvalsV1ToolExpect, EvalsV1TurnExpect, Json } from '../config/types.js'
import type { GoldenCheck, GoldenCheckName } from '../results/scoring.js'
import type { AssertionCheck } from '../results/tool-tests.js'
import { argsMismatches, matchWidgetFields } from './evals-v1-args.js'
import { refusalContext, runEvalsV1Assertions, type AssertionContext } from './evals-v1-assertions.js'

/**
 * An evals/v1 scenario turn's expectations, checked after the turn on every call so far, as
 * @mcp-use/evals checks them: `tools[]` (some call of the name, at or after `after_turn`,
 * matches every argument matcher), `result` (the assertions on the last call of the tool so far,
 * its raw result the root), `widget_fields` (this turn's last call's structuredContent). One
 * golden check per expectation entry, named `tools`, `result`, `widget`.
 */

/** One call the model requested in the scenario so far, with what the checks read of its answer. */
export interface EvalsV1Call {
  name: string
  args: Record<string, Json>
  /** The turn it was made in, 0-based (afterTurn counts so). */
  turn: number
  /** The raw tools/call result `{content, structuredContent, isError}`; absent when none came (a JSON-RPC error, a call never sent, a layer's answer). */
  raw?: Record<string, unknown>
  /** The JSON-RPC error the server answered with instead of a result. */
  protocol_error?: { code: number; message: string; data?: unknown }
  /** Why the call has no answer to check, when it was never sent (an unknown tool, arguments that were not an object): its text. */
  not_sent?: string
  /** The id of the render of the view its tool links (MCP Apps), when one was rendered. */
  app_render?: string
}

/** What a widget screenshot check needs: a rendered view's screenshot, and the vision judge. */
export interface WidgetScreens {
  /** The PNG of a render (by its id), or null when it took none (the render failed or was skipped: its record says why). */
  screenshotOf(renderId: string): Buffer | null
  /** Absent: no vision judge is configured. */
  judge?: AppJudgeFn
  signal: AbortSignal
}

/** What the `result` assertions need of the live session. */
export interface TurnCheckSession {
  /** The called tool's outputSchema, as listed; undefined when it has none. */
  outputSchemaOf(tool: string): Json | undefined
  /** Reads a resource for a nested `kind: resource`: `{contents}`, or throws with why. */
  readResource(uri: string): Promise<Json>
}

/** Whether an expectation has anything to check here. */
export function hasTurnChecks(expect: EvalsV1TurnExpect | undefined): expect is EvalsV1TurnExpect {
  return expect !== undefined && (expect.tools.length > 0 || expect.result !== null || expect.widget_fields !== null || expect.widget_screenshot !== null)
}

/**
 * The golden checks of one finished turn (`turn`, 0-based), over `calls` (every call of the
 * scenario so far, in order): one per `tools[]` entry, then `result`, then `widget`.
 */
export async function checkEvalsV1Turn(expect: EvalsV1TurnExpect, calls: readonly EvalsV1Call[], turn: number, session: TurnCheckSession, screens?: WidgetScreens): Promise<GoldenCheck[]> {
  const checks = expect.tools.map((entry) => checkToolEntry(entry, calls))
  if (expect.result) checks.push(await checkResult(expect.result, calls, session))
  if (expect.widget_fields) checks.push(checkWidget(expect.widget_fields, calls, turn))
  if (expect.widget_screenshot) checks.push(await checkWidgetScreenshot(expect.widget_screenshot, calls, turn, screens))
  return checks
}

/** One `tools[]` entry: some call of the name (at or after `after_turn`) matching every matcher; when none does, the closest call says why. */
export function checkToolEntry(entry: EvalsV1ToolExpect, calls: readonly EvalsV1Call[]): GoldenCheck {
  const pool = calls.map((call, i) => ({ call, at: where(i, call) })).filter(({ call }) => entry.after_turn === null || call.turn >= entry.after_turn)
  const named = pool.filter(({ call }) => call.name === entry.name)
  const since = entry.after_turn === null ? '' : ` at or after turn ${entry.after_turn + 1} (afterTurn ${entry.after_turn})`
  if (named.length === 0) return no('tools', `${entry.name} was not called${since}`)
  const expected = entry.args ?? {}
  if (Object.keys(expected).length === 0) return ok('tools', `${entry.name} called${since} (${named.length}x)`)
  let closest: { at: string; mismatches: string[] } | null = null
  for (const { call, at } of named) {
    const mismatches = argsMismatches(expected, call.args)
    if (mismatches.length === 0) return ok('tools', `${entry.name} called with matching arguments (${at})`)
    if (!closest || mismatches.length < closest.mismatches.length) closest = { at, mismatches }
  }
  return no('tools', `no call of ${entry.name}${since} matched its arguments; closest (${closest!.at}): ${closest!.mismatches.join(', ')}`)
}

/** `result`: the assertions on the last call of the tool so far, its raw result the root `$`. */
async function checkResult(expected: { tool: string; assert: EvalsV1Assertion[] }, calls: readonly EvalsV1Call[], session: TurnCheckSession): Promise<GoldenCheck> {
  const index = calls.map((c) => c.name).lastIndexOf(expected.tool)
  if (index < 0) return no('result', `${expected.tool} was not called, so there is no result to check`)
  const call = calls[index]
  const at = `${expected.tool}, ${where(index, call)}`
  if (call.not_sent !== undefined) return no('result', `${at}: the call was not sent to the server (${call.not_sent})`)
  if (!call.raw && !call.protocol_error) return no('result', `${at}: the call has no raw result to check`)
  // A JSON-RPC error reads as an evals/v1 check's does.
  const context: AssertionContext = {
    ...(call.protocol_error ? refusalContext(call.protocol_error) : { root: call.raw as Json }),
    outputSchema: session.outputSchemaOf(call.name),
    readResource: (uri) => session.readResource(uri)
  }
  // Never throws: a failed read fails its own rule.
  return summarise(at, await runEvalsV1Assertions(expected.assert, context))
}

/** One check for the entry's assertions (each kept in `assertions`): passed when every one did, the failed ones' reasons named. */
function summarise(at: string, outcomes: AssertionCheck[]): GoldenCheck {
  const failed = outcomes.filter((o) => !o.passed)
  const count = `${outcomes.length} assertion${outcomes.length === 1 ? '' : 's'}`
  if (failed.length === 0) return { ...ok('result', `${at}: ${count} passed`), assertions: outcomes }
  // The check's path, unless its reason starts with it already.
  const reasons = failed.map((o) => `${o.check}${o.path && !o.reason.startsWith(o.path) ? ` ${o.path}` : ''}: ${o.reason}`)
  return { ...no('result', `${at}: ${failed.length} of ${count} failed: ${reasons.join('; ')}`), assertions: outcomes }
}

/** `widget.fields`: this turn's last call's structuredContent, key by key. */
function checkWidget(fields: Record<string, Json>, calls: readonly EvalsV1Call[], turn: number): GoldenCheck {
  const index = calls.map((c) => c.turn).lastIndexOf(turn)
  if (index < 0) return no('widget', 'this turn made no tool call, so there is no structuredContent to compare the widget fields with')
  const call = calls[index]
  const structured = call.raw?.structuredContent as Json | undefined
  const { passed, reason } = matchWidgetFields(fields, structured)
  return { check: 'widget', passed, reason: `${call.name}, ${where(index, call)}: ${reason}` }
}

/**
 * `widget.screenshot`: the screenshot of a call's rendered view, judged by the vision judge
 * against the rubric (0–10, passed at score / 10 >= threshold). The call: the last one of `tool`
 * so far whose arguments match `args` (the tools[] matchers), or with no `tool`, this turn's last
 * call whose view was rendered.
 */
async function checkWidgetScreenshot(shot: NonNullable<EvalsV1TurnExpect['widget_screenshot']>, calls: readonly EvalsV1Call[], turn: number, screens: WidgetScreens | undefined): Promise<GoldenCheck> {
  const index = lastIndexWhere(calls, (c) => (shot.tool === null ? c.turn === turn && c.app_render !== undefined : c.name === shot.tool && (shot.args === null || argsMismatches(shot.args, c.args).length === 0)))
  if (index < 0) {
    const which = shot.tool === null ? 'this turn made no call whose view was rendered' : `no call of ${shot.tool}${shot.args === null ? '' : ' with matching arguments'} so far`
    return no('widget', `screenshot: ${which}, so there is no widget to judge`)
  }
  const call = calls[index]
  const at = `${call.name}, ${where(index, call)}`
  if (call.app_render === undefined) return no('widget', `screenshot: ${at}: no view was rendered for this call (its tool links no ui:// resource, or the call got no result)`)
  const png = screens?.screenshotOf(call.app_render) ?? null
  if (!png) return no('widget', `screenshot: ${at}: the view has no screenshot (render ${call.app_render} says why), so it was not judged`)
  if (!screens?.judge) return no('widget', `screenshot: ${at}: the widget screenshot needs a vision judge, and none is configured`)
  try {
    const { score, reason } = await screens.judge({ rubric: shot.rubric, png, model: null, context: `the view of ${call.name} (${where(index, call)})` }, screens.signal)
    const passed = score / 10 >= shot.threshold
    return { check: 'widget', passed, reason: `screenshot: ${at}: scored ${score}/10 against the threshold ${shot.threshold}: ${reason}` }
  } catch (error) {
    return no('widget', `screenshot: ${at}: the vision judge failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}

function lastIndexWhere<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i])) return i
  return -1
}

/** Where a call is, as the record numbers them: `call 3, turn 2` (both 1-based). */
const where = (index: number, call: EvalsV1Call) => `call ${index + 1}, turn ${call.turn + 1}`
const ok = (check: GoldenCheckName, reason: string): GoldenCheck => ({ check, passed: true, reason })
const no = (check: GoldenCheckName, reason: string): GoldenCheck => ({ check, passed: false, reason })
