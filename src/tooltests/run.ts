import type { Json, ToolTest } from '../config/types.js'
import { askedDuring, watchSession } from '../conformance/observe-session.js'
import { SessionFrames, type CheckedFrames } from '../conformance/wire-schema/session-frames.js'
import type { AppRenderer } from '../execute/app-host.js'
import { cancellationOf } from '../execute/cancellation.js'
import { ServerError, type McpSession, type RawToolCall, type SessionFactory } from '../mcp/session.js'
import { appRenderFailed, type AssertionCheck, type ToolTestAttempt, ToolTestResult, type ToolTestStatus, type ToolTestStepResult } from '../results/types.js'
import { heldTimer, type HeldTimer } from '../util/held-timer.js'
import { linkedSignal } from '../util/linked-signal.js'
import { meaningfulTail } from '../util/stderr-tail.js'
import { createPool } from '../util/pool.js'
import { redactDeep, redactText } from '../util/redact.js'
import { renderStepApp } from './app-step.js'
import { captureValues, substituteCaptures } from './capture.js'
import { checkStep, responseValue } from './expect.js'
import { runEvalsV1Step } from './evals-v1-step.js'
import { keptResponse, stepResponse } from './response.js'
import type { SnapshotStore } from './snapshot.js'

export interface ToolTestSettings {
  /** Bounds one attempt: starting its server and every step. */
  timeoutSeconds: number
  /** Attempts in flight at once (each has its own server process). */
  concurrency: number
  snapshots: SnapshotStore
  /** Values that must not be kept: redacted out of every record. */
  secrets: readonly string[]
}

export interface ToolTestDeps {
  sessions: SessionFactory
  /** Aborted when the job is cancelled: no attempt starts after it, in-flight ones stop. */
  cancel?: AbortSignal
  /** Called with each test the moment all its attempts are done (the journal appends it). */
  onTestFinished?: (result: ToolTestResult, finished: number, total: number) => void
  /** Renders a step's `app:` (MCP Apps); absent: such a step's render is skipped, saying so. */
  apps?: AppRenderer
}

/**
 * Run the tool tests: every attempt in a fresh session (a fresh process over stdio), steps in
 * order on it, each checked as it answers. Never throws: a server that does not start, a crash
 * or a timeout is that attempt's error; the other tests and attempts still run.
 */
export async function runToolTests(tests: ToolTest[], settings: ToolTestSettings, deps: ToolTestDeps): Promise<ToolTestResult[]> {
  const pool = createPool(settings.concurrency)
  let finished = 0
  return Promise.all(
    tests.map(async (test) => {
      const started = performance.now()
      const attempts = await Promise.all(Array.from({ length: test.runs }, (_, i) => pool.run(() => runAttempt(test, i + 1, settings, deps))))
      const result: ToolTestResult = {
        id: test.id,
        tags: test.tags,
        status: testStatus(attempts),
        passed: attempts.every((a) => a.status === 'passed'),
        runs: test.runs,
        attempts,
        duration_ms: Math.round(performance.now() - started)
      }
      deps.onTestFinished?.(result, ++finished, tests.length)
      return result
    })
  )
}

/** Any failed attempt fails the test; else an error, else a cancel, says why there is no verdict. */
function testStatus(attempts: ToolTestAttempt[]): ToolTestStatus {
  for (const status of ['failed', 'error', 'cancelled'] as const) if (attempts.some((a) => a.status === status)) return status
  return 'passed'
}

async function runAttempt(test: ToolTest, attempt: number, settings: ToolTestSettings, deps: ToolTestDeps): Promise<ToolTestAttempt> {
  const started = performance.now()
  const record = (status: ToolTestStatus, steps: ToolTestStepResult[], error: string | null = null, stderr: string | null = null): ToolTestAttempt => ({
    attempt,
    status,
    error: error === null ? null : redactText(error, settings.secrets),
    stderr_tail: stderr ? redactText(stderr, settings.secrets) : null,
    steps,
    duration_ms: Math.round(performance.now() - started)
  })
  if (deps.cancel?.aborted) return record('cancelled', [], 'cancelled before it started')
  const timeout = new AbortController()
  // An app render has its own timeout: the attempt's clock is held while it runs.
  const timer = heldTimer(settings.timeoutSeconds * 1000, () => timeout.abort(new Error(`the attempt exceeded timeout_seconds (${settings.timeoutSeconds}s)`)))
  // The attempt's one signal, let go of by the job's cancel when the attempt ends (not AbortSignal.any: util/linked-signal.ts).
  const attemptSignal = deps.cancel ? linkedSignal([timeout.signal, deps.cancel]) : null
  const signal = attemptSignal?.signal ?? timeout.signal
  const steps: ToolTestStepResult[] = []
  let session: McpSession | undefined
  try {
    // Every message of the session is checked against the schema; each step keeps what came during it (the first, the opening's too).
    const frames = new SessionFrames()
    session = await deps.sessions.open(signal, { serverFrames: frames.sink })
    const watched = watchSession(session)
    const captured: Record<string, Json> = {}
    for (const [i, step] of test.steps.entries()) {
      const { args, missing } = substituteCaptures(step.args, captured)
      const { result, values } = await runStep(test, { attempt, index: i + 1, timer }, step, args, missing, session, watched.check, settings, deps, signal)
      // The values as captured, not as recorded (redacted): later steps send them on.
      Object.assign(captured, values)
      steps.push(withFrames(result, frames.take(), settings.secrets))
      if (result.app?.status === 'cancelled' && cancellationOf(deps.cancel)) return record('cancelled', steps, 'cancelled while rendering the app')
      if (!result.passed) return record('failed', steps)
    }
    return record('passed', steps)
  } catch (error) {
    if (cancellationOf(deps.cancel)) return record('cancelled', steps, `cancelled while ${session ? 'calling the tools' : 'starting the server'}`)
    const reason = timeout.signal.aborted ? (timeout.signal.reason as Error).message : error instanceof Error ? error.message : String(error)
    const stderr = error instanceof ServerError ? error.stderrTail : (session?.stderrTail() ?? '')
    return record('error', steps, reason, stderr ? meaningfulTail(stderr, 20) : null)
  } finally {
    timer.clear()
    attemptSignal?.release()
    await session?.close()
  }
}

/** A step's observed findings with the schema's findings on the messages that came during it. */
function withFrames(result: ToolTestStepResult, checked: CheckedFrames, secrets: ToolTestSettings['secrets']): ToolTestStepResult {
  if (checked.frames === 0) return result
  const observed = result.observed
  return { ...result, observed: { ...observed, findings: [...observed.findings, ...redactDeep(checked.findings, secrets)], frames: checked.frames } }
}

/** Where a step is: its attempt, its 1-based index, and the attempt's clock (held during an app render). */
interface StepPlace {
  attempt: number
  index: number
  timer: HeldTimer
}

async function runStep(
  test: ToolTest,
  place: StepPlace,
  step: ToolTest['steps'][number],
  args: Record<string, Json>,
  missing: string[],
  session: McpSession,
  observe: (call: RawToolCall) => ToolTestStepResult['observed']['findings'],
  settings: ToolTestSettings,
  deps: ToolTestDeps,
  signal: AbortSignal
): Promise<{ result: ToolTestStepResult; values: Record<string, Json> }> {
  const { index } = place
  const base = { index, tool: step.tool, args: redactDeep(args, settings.secrets) }
  if (missing.length > 0) {
    // Only reachable when an earlier capture failed; that step failed first, so this is a guard.
    const check: AssertionCheck = { check: 'capture', path: null, passed: false, expected: missing, actual: null, reason: `no value captured for ${missing.map((m) => `\${${m}}`).join(', ')}` }
    return { result: { ...base, latency_ms: 0, response: null, checks: [check], captured: {}, passed: false, observed: { calls: 0, findings: [] } }, values: {} }
  }
  if (step.call || step.expect.asserts) {
    // An evals/v1 check: exactly its assertions, on the raw answer; no captures or snapshots.
    const outcome = await runEvalsV1Step(step, args, session, signal)
    const findings = outcome.call ? observe(outcome.call) : []
    const result: ToolTestStepResult = {
      ...base,
      latency_ms: outcome.latency_ms,
      response: redactDeep(keptResponse(outcome.response), settings.secrets),
      checks: redactDeep(outcome.checks, settings.secrets),
      captured: {},
      passed: outcome.checks.every((c) => c.passed),
      observed: { calls: outcome.call ? 1 : 0, findings: redactDeep(findings, settings.secrets), asked: outcome.asked ? 1 : 0 }
    }
    return { result: outcome.call ? await withApp(result, test, place, step, args, outcome.call, session, settings, deps) : result, values: {} }
  }
  const call = await session.callToolRaw(step.tool, args, signal)
  const findings = observe(call)
  // Checked and captured as it came (a server env value such as "celsius" counts as a secret and
  // may well be in a right answer); redacted in what is kept, snapshot files included.
  const response = stepResponse(call)
  const tool = session.tools.find((t) => t.name === step.tool)
  const checks = checkStep({
    testId: test.id,
    step,
    stepIndex: index,
    stepCount: test.steps.length,
    response,
    latencyMs: call.latency_ms,
    tool,
    snapshots: settings.snapshots,
    redact: <T>(value: T) => redactDeep(value, settings.secrets)
  })
  let captured: Record<string, Json> = {}
  if (Object.keys(step.capture).length > 0) {
    const value = responseValue(response)
    if (value.ok) {
      const capture = captureValues(step.capture, value.value)
      captured = capture.captured
      checks.push(...capture.checks)
    } else {
      checks.push({ check: 'capture', path: null, passed: false, expected: Object.keys(step.capture), actual: null, reason: `nothing to capture from: ${value.reason}` })
    }
  }
  const result: ToolTestStepResult = {
    ...base,
    latency_ms: call.latency_ms,
    response: redactDeep(keptResponse(response), settings.secrets),
    checks: redactDeep(checks, settings.secrets),
    captured: redactDeep(captured, settings.secrets),
    passed: checks.every((c) => c.passed),
    observed: { calls: 1, findings: redactDeep(findings, settings.secrets), asked: askedDuring(call) ? 1 : 0 }
  }
  return { result: await withApp(result, test, place, step, args, call, session, settings, deps), values: captured }
}

/**
 * A step with `app:`: after the call and its checks, the view its tool links rendered and checked
 * (the attempt's clock held meanwhile); a failed render fails the step, its checks kept as they are.
 */
async function withApp(
  result: ToolTestStepResult,
  test: ToolTest,
  place: StepPlace,
  step: ToolTest['steps'][number],
  args: Record<string, Json>,
  call: RawToolCall,
  session: McpSession,
  settings: ToolTestSettings,
  deps: ToolTestDeps
): Promise<ToolTestStepResult> {
  if (!step.app) return result
  const input = { testId: test.id, attempt: place.attempt, index: place.index, toolName: step.tool, app: step.app, args, call, session, renderer: deps.apps, cancel: deps.cancel }
  const app = redactDeep(await place.timer.aside(() => renderStepApp(input)), settings.secrets)
  return { ...result, app, passed: result.passed && !appRenderFailed(app) }
}
