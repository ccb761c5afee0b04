import { blockingEntries, describeEntry } from '../conformance/expected-failures.js'
import type { CheckResult } from '../results/types.js'
import { appRenderFailed, isMethodStep, type AssertionCheck, type BudgetCheck, type ResultsDocument, type RunResult, type ToolTestAttempt, type ToolTestResult } from '../results/types.js'
import { firstLine } from '../util/text.js'
import { count } from '../util/words.js'
import { endedWords, stopWords, turnChecked, turnJudgeWords } from './dialogue.js'
import { unreachableReason } from './headline.js'
import { formatPercent } from './numbers.js'
import { failureReasons } from './reasons.js'
import { budgetChecks } from '../aggregate/verdict.js'
import { toolTestPassed } from '../aggregate/verdict.js'
import { toolTestFailureWords } from './tool-tests.js'
import { appDetails } from './app-details.js'

/**
 * JUnit XML, so any test-report action can show the results: the conformance checks as one
 * testsuite, the tool tests as one (a testcase per test), one testsuite of behaviour testcases,
 * one per case × model × system prompt (a group whose runs never started is skipped: budget), and
 * the Layer 3 budgets as one (a testcase per check). An unreachable server is one error. A failed
 * MCP Apps render fails its tool test or run with its finding; apps skipped (no browser) are one skipped testcase.
 */
export function renderJUnit(doc: ResultsDocument): string {
  const suites: Suite[] = []
  if (doc.fatal_error !== null) {
    suites.push(
      suite('configuration', [`    <testcase classname="configuration" name="configuration">\n      <error message="${attr(firstLine(doc.fatal_error))}">${text(doc.fatal_error)}</error>\n    </testcase>`], 0)
    )
  }
  const unreachable = doc.fatal_error === null ? unreachableReason(doc) : null
  if (doc.conformance) suites.push(conformanceSuite(doc))
  else if (unreachable !== null) {
    suites.push(suite('server', [`    <testcase classname="server" name="reachable" time="0">\n      <error message="${attr(`the server could not be started or reached: ${firstLine(unreachable)}`)}" type="unreachable">${text(unreachable)}</error>\n    </testcase>`], 0))
  }
  if (doc.tool_tests) suites.push(toolTestsSuite(doc))
  if (doc.behaviour.status === 'ran' && doc.runs.length > 0) suites.push(behaviourSuite(doc))
  // MCP Apps skipped for want of a browser: one skipped testcase, so no test report reads it as passed.
  if (doc.apps?.status === 'skipped') suites.push(suite('mcp apps', [`    <testcase classname="mcp apps" name="mcp apps" time="0">\n      <skipped message="${attr(`not rendered: ${doc.apps.reason ?? 'skipped'}`)}"/>\n    </testcase>`], 0))
  const budgets = budgetsSuite(doc)
  if (budgets) suites.push(budgets)
  const total = (key: keyof Omit<Suite, 'xml'>) => suites.reduce((n, s) => n + s[key], 0)
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="MCP Server Evals" tests="${total('tests')}" failures="${total('failures')}" errors="${total('errors')}" skipped="${total('skipped')}" time="${doc.duration_s}">`,
    ...suites.map((s) => s.xml),
    '</testsuites>',
    ''
  ].join('\n')
}

interface Suite {
  xml: string
  tests: number
  failures: number
  errors: number
  skipped: number
}

function conformanceSuite(doc: ResultsDocument): Suite {
  const section = doc.conformance!
  const failsOn = (c: CheckResult) => c.status === 'fail' || (section.fail_on === 'warning' && c.status === 'warn')
  const cases = section.checks.map((check) => {
    const open = `    <testcase classname="conformance" name="${attr(check.id)}" time="0">`
    const details = [`${check.spec}`, check.message, ...(check.evidence ? [`request: ${check.evidence.request}`, `response: ${check.evidence.response}`] : [])].join('\n')
    if (check.status === 'skip') return `${open}\n      <skipped message="${attr(check.message)}"/>\n    </testcase>`
    // Listed in the expected-failures file: known, not gated; skipped with the reason (as the official suite's baseline).
    if (check.status === 'expected') {
      return `${open}\n      <skipped message="${attr(`expected failure (${check.expected_entry ?? check.id} in ${section.expected_failures?.file ?? 'the expected-failures file'}): ${check.message}`)}"/>\n    </testcase>`
    }
    if (failsOn(check) && section.fail_on !== 'never') return `${open}\n      <failure message="${attr(`${check.id}: ${check.message}`)}" type="${check.severity}">${text(details)}</failure>\n    </testcase>`
    // A finding the gate lets through (a warning, or any with fail_on: never) is still said, not shown as a plain pass.
    if (check.status === 'warn' || check.status === 'fail') {
      const said = check.status === 'warn' ? 'warning' : 'failed (not gating: conformance fail_on is never)'
      return `${open}\n      <system-out>${text(`${said}: ${details}`)}</system-out>\n    </testcase>`
    }
    return `${open}</testcase>`
  })
  if (section.era === 'unreachable') {
    const u = section.unreachable
    const message = `the server could not be started or reached${section.error ? `: ${firstLine(section.error)}` : ''}`
    const details = [
      section.error ?? message,
      ...(u?.http_status !== null && u?.http_status !== undefined ? [`HTTP status: ${u.http_status}`] : []),
      ...(u?.cause ? [`cause: ${u.cause}`] : []),
      ...(u?.body ? ['response body:', u.body] : []),
      ...(u?.stderr ? ['server stderr:', u.stderr] : []),
      ...(u?.stdout ? ['server stdout (not JSON-RPC):', u.stdout] : [])
    ]
    cases.push(`    <testcase classname="conformance" name="server reachable" time="0">\n      <error message="${attr(message)}" type="unreachable">${text(details.join('\n'))}</error>\n    </testcase>`)
  } else if (section.error) cases.push(`    <testcase classname="conformance" name="probe" time="0">\n      <error message="${attr(section.error)}">${text(section.error)}</error>\n    </testcase>`)
  // A stale or unknown entry of the expected-failures file fails the gate: one failing testcase each, named after the entry.
  if (section.era !== 'unreachable' && section.fail_on !== 'never') {
    for (const entry of blockingEntries(section)) {
      const message = `${section.expected_failures!.file}:${entry.line}: ${entry.entry} is ${entry.outcome}: ${describeEntry(entry, section.checks)}`
      cases.push(`    <testcase classname="conformance" name="${attr(`expected failure ${entry.entry}`)}" time="0">\n      <failure message="${attr(message)}" type="expected-failures-${entry.outcome}">${text(message)}</failure>\n    </testcase>`)
    }
  }
  const era = section.era === 'modern' ? `MCP ${section.negotiated_version}` : section.era === 'unreachable' ? 'unreachable' : `legacy ${section.negotiated_version ?? ''}`.trim()
  return suite(`conformance (${era}, ${section.transport})`, cases, section.duration_ms / 1000)
}

/**
 * One testcase per tool test: a failure names every failed check of every failing attempt (the
 * step, the call, expected and actual, the snapshot diff); an attempt that could not finish is an
 * error; a cancelled test is skipped. Tool tests that did not run are one skipped testcase.
 */
function toolTestsSuite(doc: ResultsDocument): Suite {
  const section = doc.tool_tests!
  if (section.status === 'skipped') {
    return suite('tool tests', [`    <testcase classname="tool tests" name="tool tests" time="0">\n      <skipped message="${attr(section.reason ?? 'skipped')}"/>\n    </testcase>`], 0)
  }
  const cases = section.tests.map((test) => {
    const open = `    <testcase classname="tool tests" name="${attr(test.id)}" time="${Math.round(test.duration_ms) / 1000}">`
    if (toolTestPassed(test)) return `${open}</testcase>`
    const words = toolTestFailureWords(test) ?? test.status
    if (test.status === 'cancelled') return `${open}\n      <skipped message="${attr(words)}"/>\n    </testcase>`
    const attempts = test.attempts.filter((a) => a.status !== 'passed' || a.steps.some((s) => !s.passed))
    const details = attempts.map((a) => attemptDetails(test, a)).join('\n\n')
    const prefix = test.runs > 1 ? `${test.attempts.filter((a) => a.status === 'passed' && a.steps.every((s) => s.passed)).length}/${test.runs} attempts passed; ` : ''
    const tag = test.status === 'error' ? 'error' : 'failure'
    return `${open}\n      <${tag} message="${attr(`${prefix}${words}`)}" type="${test.status === 'error' ? 'tool-test-error' : 'assertion'}">${text(details)}</${tag}>\n    </testcase>`
  })
  return suite('tool tests', cases, section.tests.reduce((t, test) => t + test.duration_ms, 0) / 1000)
}

function attemptDetails(test: ToolTestResult, attempt: ToolTestAttempt): string {
  const lines = [test.runs > 1 ? `attempt ${attempt.attempt} of ${test.runs}: ${attempt.status}` : attempt.status]
  for (const step of attempt.steps.filter((s) => !s.passed)) {
    // An evals/v1 resource read or list takes no arguments: its label says what was asked.
    lines.push(`step ${step.index}: ${step.tool}${isMethodStep(step) ? '' : ` ${JSON.stringify(step.args)}`} (${Math.round(step.latency_ms)} ms)`)
    if (step.response?.kind === 'error') lines.push(`  JSON-RPC error ${step.response.code}: ${step.response.message}`)
    for (const check of step.checks.filter((c) => !c.passed)) lines.push(...checkDetails(check))
    if (step.app) lines.push(...appDetails(step.app))
  }
  if (attempt.error) lines.push(`error: ${attempt.error}`)
  if (attempt.stderr_tail) lines.push('server stderr:', attempt.stderr_tail)
  return lines.join('\n')
}

function checkDetails(check: AssertionCheck): string[] {
  const lines = [`  ✗ ${check.check}${check.path ? ` ${check.path}` : ''}: ${check.reason}`]
  if (check.diff) lines.push(check.diff)
  else lines.push(`    expected: ${JSON.stringify(check.expected) ?? 'undefined'}`, `    actual: ${JSON.stringify(check.actual) ?? 'undefined'}`)
  return lines
}

/** One testcase per group (case × model × prompt); with repeats, k of N against the floor. */
function behaviourSuite(doc: ResultsDocument): Suite {
  const byIndex = new Map(doc.runs.map((r) => [r.index, r]))
  const cases = doc.groups.map((group) => {
    const runs = group.run_indexes.map((i) => byIndex.get(i)).filter((r): r is RunResult => !!r)
    const seconds = runs.reduce((t, r) => t + r.duration_s, 0)
    const open = `    <testcase classname="${attr(`${group.model} · ${group.prompt_name}`)}" name="${attr(group.case_id)}" time="${Math.round(seconds * 10) / 10}">`
    if (group.success) return `${open}</testcase>`
    // Never run (cancelled, or skipped because the spend reached max_cost_usd): no verdict, skipped.
    const notRun = runs.filter((r) => r.status === 'cancelled' || r.status === 'skipped')
    if (runs.length > 0 && notRun.length === runs.length) return `${open}\n      <skipped message="${attr(failureReasons(notRun.find((r) => r.status === 'skipped') ?? runs[0]).join('; '))}"/>\n    </testcase>`
    if (runs.length === 1) return `${open}\n${runOutcome(runs[0])}\n    </testcase>`
    const details = runs.filter((r) => r.status !== 'passed').map((r) => `run ${r.attempt}: ${failureReasons(r).join('; ')}${r.run_dir ? ` (run directory kept: ${r.run_dir})` : ''}`)
    const message = `${group.passed}/${group.runs} runs passed, below the ${group.kind} floor of ${formatPercent(group.floor)}%`
    return `${open}\n      <failure message="${attr(message)}" type="pass-rate">${text(details.join('\n'))}</failure>\n    </testcase>`
  })
  return suite('behaviour', cases, doc.runs.reduce((t, r) => t + r.duration_s, 0))
}

/** One testcase per budget checked, absolute then against the baseline; null when none is set. */
function budgetsSuite(doc: ResultsDocument): Suite | null {
  const { absolute, trends } = budgetChecks(doc)
  if (absolute.length === 0 && trends.length === 0) return null
  const testcase = (check: BudgetCheck, classname: string) => {
    const open = `    <testcase classname="${classname}" name="${attr(`${check.budget}${check.subject === null ? '' : ` · ${check.subject}`}`)}" time="0">`
    if (check.passed) return `${open}</testcase>`
    const details = [check.reason, `limit: ${check.limit}`, `actual: ${check.actual ?? 'unknown'}`, ...(check.baseline !== undefined ? [`baseline: ${check.baseline ?? 'unknown'}`] : [])]
    return `${open}\n      <failure message="${attr(check.reason)}" type="budget">${text(details.join('\n'))}</failure>\n    </testcase>`
  }
  return suite('budgets', [...absolute.map((c) => testcase(c, 'budgets')), ...trends.map((c) => testcase(c, 'budgets · against the baseline'))], 0)
}

/** A single run that did not pass: an error, or a failure that says what failed. */
function runOutcome(run: RunResult): string {
  if (run.status === 'error' && run.error) {
    // A conversation's turns, and how it stopped, after the error.
    const dialogue = run.dialogue ? `\n\n${dialogueDetails(run).join('\n').trimEnd()}` : ''
    const details = [run.error.message, ...(run.error.stderr_tail ? ['server stderr:', run.error.stderr_tail] : []), ...keptDir(run)].join('\n') + dialogue
    return `      <error message="${attr(`${run.error.stage} error: ${firstLine(run.error.message)}`)}" type="${run.error.stage}">${text(details)}</error>`
  }
  const reasons = failureReasons(run)
  const apps = (run.app_renders ?? []).filter(appRenderFailed).flatMap((r) => [`app render ${r.id} (${r.tool}, call ${r.call_index}):`, ...appDetails(r)])
  return `      <failure message="${attr(reasons.join('; '))}" type="eval">${text([...reasons, '', ...dialogueDetails(run), `final answer: ${run.final_output ?? '(none)'}`, ...apps, ...keptDir(run)].join('\n'))}</failure>`
}

/** "run directory kept: /tmp/…" when the failed run's `${RUN_DIR}` was kept (keep_run_dirs); nothing otherwise. */
function keptDir(run: RunResult): string[] {
  return run.run_dir ? [`run directory kept: ${run.run_dir}`] : []
}

/** A multi-turn run's turns, one block each (verdict, user message, answer), and how the dialogue ended; nothing for a single-turn run. */
function dialogueDetails(run: RunResult): string[] {
  const dialogue = run.dialogue
  if (!dialogue) return []
  const lines = [`dialogue (${dialogue.kind === 'simulated' ? `simulated user ${dialogue.user_model ?? ''}`.trim() : 'scripted turns'}): ${endedWords(dialogue)}`]
  for (const turn of dialogue.turns) {
    const judged = turnJudgeWords(turn.judge)
    const verdict = [...(turnChecked(run, turn) ? [turn.passed ? 'passed' : 'failed'] : []), ...(judged ? [judged] : []), count(turn.calls, 'tool call')]
    lines.push(`turn ${turn.index}${turn.simulated ? ' (simulated)' : ''}: ${verdict.join(', ')}`)
    lines.push(`  user: ${turn.user}`, `  answer: ${turn.final_output ?? `(none: ${stopWords(turn.stop_reason)})`}`)
  }
  return [...lines, '']
}

function suite(name: string, cases: string[], seconds: number): Suite {
  const body = cases.join('\n')
  const count = (tag: string) => cases.filter((c) => c.includes(`<${tag} `) || c.includes(`<${tag}>`)).length
  const counts = { tests: cases.length, failures: count('failure'), errors: count('error'), skipped: count('skipped') }
  const xml = [
    `  <testsuite name="${attr(name)}" tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${Math.round(seconds * 1000) / 1000}">`,
    body,
    '  </testsuite>'
  ].join('\n')
  return { xml, ...counts }
}

/** Characters XML 1.0 cannot hold at all. */
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g

function text(value: string): string {
  return value.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;')
}
