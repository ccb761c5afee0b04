import type { Json } from '../config/types.js'
import { isMethodStep, type AssertionCheck, type ResultsDocument, type ToolTestAttempt, type ToolTestResult, type ToolTestsSection, type ToolTestStepResult } from '../results/types.js'
import { toolTestPassed, toolTestsPassed } from '../aggregate/verdict.js'
import { appFailureWords } from '../apps/failure-words.js'
import { ellipsize, firstLine } from '../util/text.js'
import { count } from '../util/words.js'
import { blockquote, codeBlock, codeHtml, codeSpan, escapeHtml, escapeMarkdown, truncateText } from './escape.js'
import { renderAnchor, renderStanding, renderVerdictWords, STANDING_MARK } from './app-findings.js'

/** How much of a failing call the report shows: arguments, response, values, diff, stderr. */
const ARGS_LIMIT = 1500
const RESPONSE_LIMIT = 1500
const VALUE_LIMIT = 300
const DIFF_LIMIT = 6000
const STDERR_LIMIT = 2000
const WORDS_LIMIT = 120

/** The symbols of the matrix (groupSymbol): ✓ passed, ✗ failed, ⚠ errored, ⊘ cancelled. */
const SYMBOLS: Record<string, string> = { passed: '✓', failed: '✗', error: '⚠', cancelled: '⊘' }

/** Failed or errored: what a reviewer must look at. Cancelled tests are no verdict. */
export function toolTestFailing(test: ToolTestResult): boolean {
  return !toolTestPassed(test) && test.status !== 'cancelled'
}

export function toolTestSymbol(test: ToolTestResult): string {
  if (toolTestPassed(test)) return '✓'
  return test.status === 'passed' ? '✗' : (SYMBOLS[test.status] ?? '✗')
}

/** "4/6 tool tests passed (1 failed, 1 errored)": the count a headline and a log line use. */
export function toolTestCount(section: ToolTestsSection): string {
  const problems = [section.failed ? `${section.failed} failed` : '', section.errored ? `${section.errored} errored` : '', section.cancelled ? `${section.cancelled} cancelled` : '']
    .filter(Boolean)
    .join(', ')
  return `${section.passed}/${count(section.total, 'tool test')} passed${problems ? ` (${problems})` : ''}`
}

/** "pass^3 on 2 tests": the tests that run several times, by how many. */
function passK(tests: ToolTestResult[]): string {
  const byRuns = new Map<number, number>()
  for (const test of tests) if (test.runs > 1) byRuns.set(test.runs, (byRuns.get(test.runs) ?? 0) + 1)
  return [...byRuns]
    .sort((a, b) => a[0] - b[0])
    .map(([k, n]) => `pass^${k} on ${count(n, 'test')}`)
    .join(', ')
}

/** "5 of 6 passed · 1 failed · pass^3 on 2 tests · snapshots in `__snapshots__`". */
export function toolTestTally(section: ToolTestsSection): string {
  const usesSnapshots = section.tests.some((t) => t.attempts.some((a) => a.steps.some((s) => s.checks.some((c) => c.check === 'snapshot'))))
  return [
    `${section.passed} of ${section.total} passed`,
    section.failed ? `${section.failed} failed` : '',
    section.errored ? `${section.errored} errored` : '',
    section.cancelled ? `${section.cancelled} cancelled` : '',
    passK(section.tests),
    usesSnapshots ? `snapshots in ${codeSpan(section.snapshot_dir)}` : ''
  ]
    .filter(Boolean)
    .join(' · ')
}

interface Failure {
  attempt: ToolTestAttempt
  step: ToolTestStepResult | null
  check: AssertionCheck | null
}

/** The first attempt that failed or errored, its first failing step and that step's first failing check. */
function failureOf(attempt: ToolTestAttempt): Failure {
  const step = attempt.steps.find((s) => !s.passed) ?? null
  return { attempt, step, check: step?.checks.find((c) => !c.passed) ?? null }
}

function failingAttempts(test: ToolTestResult): ToolTestAttempt[] {
  return test.attempts.filter((a) => a.status === 'failed' || a.status === 'error' || (a.status === 'passed' && a.steps.some((s) => !s.passed)))
}

function firstFailure(test: ToolTestResult): Failure | null {
  const attempt = failingAttempts(test)[0] ?? test.attempts.find((a) => a.status !== 'passed')
  return attempt ? failureOf(attempt) : null
}

/** A check in a few words: `json $.temp: expected 21, got "21"`. */
function checkWords(check: AssertionCheck): string {
  const reason = firstLine(check.reason)
  const where = check.path && !reason.includes(check.path) ? ` ${check.path}` : ''
  return `${check.check}${where}: ${reason}`
}

/** Why an attempt failed, in a few words (plain text: the caller escapes it for where it goes). */
function failureWords(failure: Failure, test: ToolTestResult): string {
  const { attempt, step, check } = failure
  const at = step && (step.index > 1 || attempt.steps.length > 1 || test.attempts.some((a) => a.steps.length > 1)) ? `step ${step.index} (${step.tool}): ` : ''
  if (check) return `${at}${checkWords(check)}`
  const app = step?.app ? appFailureWords(step.app) : null
  if (app) return `${at}${app}`
  if (step?.response?.kind === 'error') return `${at}JSON-RPC error ${step.response.code}: ${firstLine(step.response.message)}`
  if (attempt.error) return `${at}${firstLine(attempt.error)}`
  if (attempt.status === 'cancelled') return 'cancelled'
  return `${at}failed`
}

/** "attempt 2 of 3": said only when the test runs more than once. */
function attemptWords(test: ToolTestResult, attempt: ToolTestAttempt): string {
  return test.runs > 1 ? `attempt ${attempt.attempt} of ${test.runs}` : ''
}

/** The first failing check of a test, in a few words, as plain text; null when it passed. */
export function toolTestFailureWords(test: ToolTestResult): string | null {
  if (toolTestPassed(test)) return null
  const failure = firstFailure(test)
  if (!failure) return test.status === 'cancelled' ? 'cancelled' : 'failed'
  return failureWords(failure, test)
}

const millis = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`)

/** Median call latency over every step of every attempt, and the slowest when it differs. */
function latencyCell(test: ToolTestResult): string {
  const ms = test.attempts
    .flatMap((a) => a.steps.map((s) => s.latency_ms))
    .filter((n) => typeof n === 'number' && Number.isFinite(n))
    .sort((a, b) => a - b)
  if (ms.length === 0) return '—'
  const mid = Math.floor(ms.length / 2)
  const median = ms.length % 2 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2
  const max = ms[ms.length - 1]
  return Math.round(max) !== Math.round(median) ? `${millis(median)} · max ${millis(max)}` : millis(median)
}

/** Attempts that passed, of the attempts pass^k asks for. */
function attemptsCell(test: ToolTestResult): string {
  return `${test.attempts.filter((a) => a.status === 'passed' && a.steps.every((s) => s.passed)).length}/${test.runs}`
}

/** " · app ✓" (or ✗, ◐ changed, ⚠ warning, ⊘ not rendered) for a test whose steps rendered an app, each distinct mark once; empty otherwise. */
function appMarks(test: ToolTestResult): string {
  const marks = [...new Set(test.attempts.flatMap((a) => a.steps.flatMap((s) => (s.app ? [STANDING_MARK[renderStanding(s.app)]] : []))))]
  return marks.length === 0 ? '' : ` · app ${marks.join('')}`
}

/** One row per test; the failing-check column only when a test did not pass. */
export function toolTestsTable(tests: ToolTestResult[]): string[] {
  const withWhy = tests.some((t) => !toolTestPassed(t))
  const headers = ['<th>Test</th>', '<th align="center">Result</th>', '<th align="center">Attempts</th>', '<th align="right">Latency</th>', ...(withWhy ? ['<th>First failing check</th>'] : [])]
  const rows = tests.map((test) => {
    const why = toolTestFailureWords(test)
    const cells = [
      `<td>${codeHtml(test.id)}</td>`,
      `<td align="center">${toolTestSymbol(test)}${appMarks(test)}</td>`,
      `<td align="center">${attemptsCell(test)}</td>`,
      `<td align="right">${latencyCell(test)}</td>`,
      ...(withWhy ? [`<td>${why === null ? '' : escapeHtml(ellipsize(why, WORDS_LIMIT))}</td>`] : [])
    ]
    return `<tr>${cells.join('')}</tr>`
  })
  return ['<table>', `<tr>${headers.join('')}</tr>`, ...rows, '</table>']
}

function legend(tests: ToolTestResult[]): string {
  const shown = new Set(tests.map(toolTestSymbol))
  const symbols = ['✓ passed', shown.has('✗') ? '✗ failed' : '', shown.has('⚠') ? '⚠ errored' : '', shown.has('⊘') ? '⊘ cancelled' : ''].filter(Boolean)
  const repeated = tests.some((t) => t.runs > 1) ? ' (pass^k: all k must pass)' : ''
  return `<sub>${symbols.join(' · ')} · Attempts: attempts that passed, of the runs asked for${repeated} · Latency: median per call · the slowest</sub>`
}

/** A JSON value as a code span, cut to a readable length. */
function valueSpan(value: Json | undefined): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value)
  return codeSpan(ellipsize(text ?? String(value), VALUE_LIMIT))
}

function pretty(value: unknown, limit: number): string {
  let text: string
  try {
    text = JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    text = String(value)
  }
  return truncateText(text, limit)
}

function checkLines(check: AssertionCheck): string[] {
  const where = check.path ? ` at ${codeSpan(check.path)}` : ''
  const out = [`- ✗ **${escapeMarkdown(check.check)}**${where} — ${escapeMarkdown(check.reason)}`]
  // A snapshot's stored and current values are the diff below; the values would repeat it, cut.
  if (check.check !== 'snapshot' || check.diff === undefined) out.push(`  - expected: ${valueSpan(check.expected)}`, `  - actual: ${valueSpan(check.actual)}`)
  out.push('')
  if (check.diff !== undefined && check.diff !== '') out.push('Snapshot diff (stored → this run):', '', codeBlock(truncateText(check.diff.replace(/\n+$/, ''), DIFF_LIMIT), 'diff'), '')
  return out
}

function responseLines(step: ToolTestStepResult): string[] {
  const response = step.response
  if (!response) return ['_No answer to this call._', '']
  if (response.kind === 'error') {
    const data = response.data === null || response.data === undefined ? [] : ['', codeBlock(pretty(response.data, RESPONSE_LIMIT), 'json')]
    return [`Response: JSON-RPC error ${codeSpan(String(response.code))} — ${escapeMarkdown(response.message)}`, ...data, '']
  }
  if (response.kind === 'value') {
    const what = isMethodStep(step) && !step.tool.startsWith('resources/read ') ? 'the list as the server listed it' : 'the contents read'
    return [`<details><summary>Response: ${what}</summary>`, '', codeBlock(pretty(response.value, RESPONSE_LIMIT), 'json'), '', '</details>', '']
  }
  const value = response.structured_content ?? response.content
  return [
    `<details><summary>Response${response.is_error ? ' (isError: true)' : ''}${response.structured_content !== null ? ': structuredContent' : ': content'}</summary>`,
    '',
    codeBlock(pretty(value, RESPONSE_LIMIT), 'json'),
    '',
    '</details>',
    ''
  ]
}

/** The step's app verdict and a link to its render in the MCP Apps section. */
function appLine(step: ToolTestStepResult): string {
  const app = step.app!
  const standing = renderStanding(app)
  const words = standing === 'passed' ? 'passed' : renderVerdictWords(app)
  return `**App** ${STANDING_MARK[standing]} ${escapeMarkdown(ellipsize(words, WORDS_LIMIT))} — <a href="#user-content-${renderAnchor(app)}">render ${codeHtml(app.id)}</a>`
}

/** One failing test, one click away: which attempt, which step, the call, each failed check, the error. */
function failureDetails(test: ToolTestResult): string[] {
  const failures = failingAttempts(test)
  const failure = firstFailure(test)
  const id = codeHtml(test.id)
  if (!failure) return []
  const { attempt, step } = failure
  const where = [attemptWords(test, attempt), step ? `step ${step.index} ${codeHtml(step.tool)}` : attempt.status === 'error' ? 'could not finish' : ''].filter(Boolean).join(', ')
  const out = [`<details><summary>${toolTestSymbol(test)} ${id}${where ? `: ${where}` : ''}</summary>`, '']
  if (test.runs > 1) {
    const marks = test.attempts.map((a) => `${a.attempt} ${a.status === 'passed' && a.steps.every((s) => s.passed) ? '✓' : (SYMBOLS[a.status === 'passed' ? 'failed' : a.status] ?? '✗')}`)
    const missing = test.runs - test.attempts.length
    out.push(`**Attempts** (pass^${test.runs}: every one must pass): ${marks.join(' · ')}${missing > 0 ? ` · ${count(missing, 'attempt')} not run` : ''}`, '')
  }
  const before = step ? attempt.steps.filter((s) => s.index < step.index) : attempt.steps
  if (before.length > 0) out.push(`${before.length === 1 ? 'Step' : 'Steps'} ${before.map((s) => s.index).join(', ')} passed: ${before.map((s) => codeSpan(s.tool)).join(' → ')}.`, '')
  if (step) {
    out.push(`**Step ${step.index}:** ${codeSpan(step.tool)} · ${millis(step.latency_ms)}`, '')
    // An evals/v1 resource read or list takes no arguments: its label says what was asked.
    if (!isMethodStep(step)) out.push('Arguments:', '', codeBlock(pretty(step.args, ARGS_LIMIT), 'json'), '')
    const failed = step.checks.filter((c) => !c.passed)
    for (const check of failed) out.push(...checkLines(check))
    if (step.app) out.push(appLine(step), '')
    // A snapshot diff already shows the answer, line by line.
    if (!failed.some((c) => c.diff)) out.push(...responseLines(step))
  }
  if (attempt.error) out.push('**Error:**', '', blockquote(attempt.error), '')
  if (attempt.stderr_tail) out.push('Server stderr (last lines):', '', codeBlock(truncateText(attempt.stderr_tail, STDERR_LIMIT)), '')
  const others = failures.filter((a) => a !== attempt)
  if (others.length > 0) {
    out.push(...others.map((a) => `- Also failed: attempt ${a.attempt} — ${escapeMarkdown(ellipsize(failureWords(failureOf(a), test), WORDS_LIMIT))}`), '')
  }
  out.push('</details>', '')
  return out
}

/**
 * The report's "Tool tests" section: a verdict, a one-line tally, a table of every test (the ones
 * that did not pass first, the passing ones collapsed below them), and for each failing test the
 * attempt, the step, the call and every failed check, one click away. Skipped: why, in a line.
 */
export function renderToolTests(doc: ResultsDocument, heading = '##'): string[] {
  const section = doc.tool_tests
  if (!section) return []
  if (section.status === 'skipped') return [`${heading} Tool tests — skipped`, '', `> ${escapeMarkdown(section.reason ?? 'skipped')}`, '']
  const verdict = toolTestsPassed(section) ? '✓ passed' : section.failed + section.errored === 0 && section.cancelled > 0 ? '⊘ cancelled' : '✗ failed'
  const out = [`${heading} Tool tests — ${verdict}`, '', `> ${toolTestTally(section)} · gate: every tool test must pass`, '']
  if (section.tests.length === 0) return out
  const notPassing = section.tests.filter((t) => !toolTestPassed(t))
  const passing = section.tests.filter(toolTestPassed)
  if (notPassing.length === 0 || passing.length === 0) out.push(...toolTestsTable(section.tests), '')
  else out.push(...toolTestsTable(notPassing), '', `<details><summary>${count(passing.length, 'passing tool test')}</summary>`, '', ...toolTestsTable(passing), '', '</details>', '')
  out.push(legend(section.tests), '')
  for (const test of section.tests.filter(toolTestFailing)) out.push(...failureDetails(test))
  return out
}

/**
 * The comment's view: the failing tests with their first failing check, one line each; all
 * passing, one collapsed line with the table inside; skipped, why.
 */
export function toolTestsDigest(section: ToolTestsSection, seeAlso: string, limit = 20): string[] {
  if (section.status === 'skipped') return [`**Tool tests skipped:** ${escapeMarkdown(section.reason ?? 'skipped')}`, '']
  const failing = section.tests.filter(toolTestFailing)
  if (failing.length === 0) {
    const summary = `Tool tests ${toolTestsPassed(section) ? '✓' : '⊘'} ${toolTestTally(section).replace(/`/g, '')}`
    return [`<details><summary>${escapeHtml(summary)}</summary>`, '', ...toolTestsTable(section.tests), '', '</details>', '']
  }
  const out = [`#### Tool tests — ✗ ${failing.length} of ${section.total} did not pass`, '', toolTestTally(section), '']
  for (const test of failing.slice(0, limit)) {
    const failure = firstFailure(test)
    const attempt = failure ? attemptWords(test, failure.attempt) : ''
    const words = toolTestFailureWords(test) ?? 'failed'
    out.push(`- ${toolTestSymbol(test)} ${codeSpan(test.id)}${attempt ? ` (${attempt})` : ''} — ${escapeMarkdown(ellipsize(words, WORDS_LIMIT))}`)
  }
  if (failing.length > limit) out.push(`- … and ${failing.length - limit} more: see ${seeAlso}`)
  out.push('')
  return out
}
