import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../__fixtures__/cli.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { conformanceOnlyShape } from '../__fixtures__/report-shapes.js'
import { OBSERVED_CHECKS } from '../src/conformance/observed.js'
import { checkTally, renderConformance } from '../src/report/conformance.js'
import { renderJUnit } from '../src/report/junit.js'
import type { CheckResult, ConformanceSection, ResultsDocument } from '../src/results/types.js'

// The console, the report and the comment say one tally of conformance. The probes finish before
// the tool tests and runs whose calls the observed checks (OBSERVED_CHECKS) are held to, so a line
// printed when the probes finished counted fewer checks than the report did.

const SUITE = fixturePath('../examples/eval_cases.yaml')
const server = (script: string) => JSON.stringify({ command: process.execPath, args: [fixturePath(script)] })

async function evaluate(script: string, extra: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'tally-'))
  const paths = { output: join(dir, 'r.json'), report: join(dir, 'r.md') }
  const { code, stdout, stderr } = await runCli(['--server-config', server(script), '--eval-cases', SUITE, '--output', paths.output, '--report', paths.report, ...extra], {})
  expect(stderr).toBe('')
  const doc = JSON.parse(readFileSync(paths.output, 'utf8')) as ResultsDocument
  return { code, stdout, doc, report: readFileSync(paths.report, 'utf8') }
}

/** The tally after "— " in the console's conformance line, and in the report's section quote. */
const consoleTally = (stdout: string) => /^Conformance: .* — (.+) \(\d+\.\ds\)$/m.exec(stdout)?.[1]
const reportTally = (report: string) => /^> .* · (\d+ checks: [^·]+) · /m.exec(report)?.[1].replace(/\\/g, '')

function counted(checks: CheckResult[]) {
  const n = (status: CheckResult['status']) => checks.filter((c) => c.status === status).length
  return { total: checks.length, pass: n('pass'), warn: n('warn'), fail: n('fail'), skip: n('skip') }
}

describe('one conformance tally, the console’s and the report’s', () => {
  test('tool tests ran: the console counts the checks observed on their calls, as the report does', async () => {
    const { code, stdout, doc, report } = await evaluate('../examples/server/server.mjs', [])
    expect(code).toBe(0)
    const checks = doc.conformance!.checks
    // The observed checks passed on the tool tests' calls: they are in the document, not in the probes' report.
    expect(checks.filter((c) => OBSERVED_CHECKS.some((o) => o.id === c.id) && c.status === 'pass').length).toBeGreaterThan(0)
    const c = counted(checks)
    const expected = `${c.total} checks: ${c.pass} passed, ${c.warn} warning${c.warn === 1 ? '' : 's'}, ${c.skip} skipped`
    expect(c.warn).toBeGreaterThan(0)
    expect(consoleTally(stdout)).toBe(expected)
    expect(reportTally(report)).toBe(expected)
    // Said once, after the tool tests' lines, right before the verdict.
    expect(stdout.match(/^Conformance: /gm)).toHaveLength(1)
    expect(stdout.indexOf('Conformance: ')).toBeGreaterThan(stdout.lastIndexOf('weather-paris-direct'))
    expect(stdout.indexOf('Conformance: ')).toBeLessThan(stdout.indexOf('PASSED: '))
  })

  test('a legacy server: the skips by reason, the same in the console and the report', async () => {
    const { code, stdout, doc, report } = await evaluate('servers/legacy-server.mjs', ['--conformance', 'only'])
    expect(code).toBe(0)
    const c = counted(doc.conformance!.checks)
    expect(consoleTally(stdout)).toBe(reportTally(report))
    expect(consoleTally(stdout)).toBe(`${c.total} checks: ${c.pass} passed, ${c.warn} warnings, ${c.skip} skipped`)
    const legacy = doc.conformance!.checks.filter((check) => check.message === 'legacy server: applies from 2026-07-28').length
    const unobserved = doc.conformance!.checks.filter((check) => check.message === 'no tool result was observed').length
    expect(legacy).toBeGreaterThan(10)
    expect(unobserved).toBe(OBSERVED_CHECKS.length)
    // The largest group first; every reason whole, none cut to the first one.
    expect(stdout).toMatch(new RegExp(`^  – ${c.skip} skipped: ${legacy} × legacy server: applies from 2026-07-28 · ${unobserved} × no tool result was observed · `, 'm'))
    expect(report).toContain(`– ${c.skip} skipped: ${legacy} × legacy server: applies from 2026\\-07\\-28 · ${unobserved} × no tool result was observed · `)
    expect(report).not.toContain(', …)')
  })
})

describe('the report’s conformance section', () => {
  const check = (id: string, status: CheckResult['status'], message: string, evidence?: CheckResult['evidence']): CheckResult => ({ id, severity: status === 'fail' ? 'error' : 'warning', spec: `rule of ${id}`, status, message, ...(evidence ? { evidence } : {}) })
  const section = (checks: CheckResult[]): ConformanceSection =>
    ({
      era: 'modern',
      negotiated_version: '2026-07-28',
      transport: 'stdio',
      server_info: { name: 's', version: '1' },
      duration_ms: 1000,
      checks,
      migration: [],
      error: null,
      unreachable: null,
      tools: [],
      fail_on: 'error',
      passed: false
    }) as unknown as ConformanceSection

  test('each failure and warning once: its line is the fold’s summary, the rule and the evidence inside', () => {
    const long = `missing ${'x'.repeat(400)} end`
    const lines = renderConformance(
      section([check('a-check', 'fail', 'broke <it>', { request: '{"id":1}', response: '{"id":1,"error":{}}' }), check('b-check', 'warn', long), check('c-check', 'pass', 'ok')]),
      new Set(['a-check'])
    ).join('\n')
    expect(lines.match(/a-check/g)).toHaveLength(1)
    expect(lines).toContain('<details><summary>✗ <code>a-check</code> (error) <em>new</em> — broke &lt;it&gt;</summary>\n\n**Rule:** rule of a\\-check\n\nRequest:\n\n```json\n{"id":1}\n```')
    // A message the summary had to cut is whole inside; a short one is not said twice.
    expect(lines).toContain(`— missing ${'x'.repeat(292)}…</summary>`)
    expect(lines).toContain(`\n\nmissing ${'x'.repeat(400)} end\n\n`)
    expect(lines.match(/broke/g)).toHaveLength(1)
    expect(lines).not.toMatch(/^- [✗⚠]/m)
  })

  test('a server’s message cannot end the fold early: no tag, no blank line in its summary', () => {
    const lines = renderConformance(section([check('a-check', 'fail', 'x\n\n</summary></details><img src=x> @octo')]))
    const summary = lines.find((l) => l.startsWith('<details><summary>✗'))!
    expect(summary).toBe('<details><summary>✗ <code>a-check</code> (error) — x  &lt;/summary&gt;&lt;/details&gt;&lt;img src=x&gt; @\u200bocto</summary>')
  })

  test('skips grouped by reason, largest first, with the checks of each folded', () => {
    const lines = renderConformance(section([check('p1', 'pass', 'ok'), check('s1', 'skip', 'why one'), check('s2', 'skip', 'why two'), check('s3', 'skip', 'why two')])).join('\n')
    expect(lines).toContain('– 3 skipped: 2 × why two · 1 × why one')
    expect(lines).toContain('<details><summary>Which checks passed (1) and which were skipped (3)</summary>')
    expect(lines).toContain('**Skipped, why two (2):** <code>s2</code> · <code>s3</code>')
    expect(lines).toContain('4 checks: 1 passed, 3 skipped')
  })
})

describe('JUnit counts the same checks', () => {
  const suiteOf = (xml: string) => /<testsuite name="conformance[^"]*" tests="(\d+)" failures="(\d+)" errors="\d+" skipped="(\d+)"/.exec(xml)!.slice(1).map(Number)

  test('tests, failures and skips are the tally’s; a failure the gate lets through is said, not a plain pass', () => {
    const doc = conformanceOnlyShape()
    const c = counted(doc.conformance!.checks)
    expect(checkTally(doc.conformance!)).toBe(`${c.total} checks: ${c.pass} passed, ${c.fail} failed, 1 warning, ${c.skip} skipped`)
    expect(suiteOf(renderJUnit(doc))).toEqual([c.total, c.fail, c.skip])
    const never = { ...doc, conformance: { ...doc.conformance!, fail_on: 'never' as const } }
    const xml = renderJUnit(never)
    expect(suiteOf(xml)).toEqual([c.total, 0, c.skip])
    const failed = doc.conformance!.checks.find((check) => check.status === 'fail')!
    expect(xml).toMatch(new RegExp(`name="${failed.id}" time="0">\\n\\s*<system-out>failed \\(not gating: conformance fail_on is never\\): `))
  })
})
