import { isMethodStep, type AssertionCheck, type ToolTestAttempt, type ToolTestResult, type ToolTestStepResult } from '../../../results/tool-tests.js'
import { toolTestPassed } from '../../../aggregate/verdict.js'
import { renderAnchor, renderStanding, renderVerdictWords } from '../../app-findings.js'
import { toolTestCount, toolTestFailing, toolTestFailureWords } from '../../tool-tests.js'
import { count, JsonText, LongText, ms, Section, Status } from './common.js'
import { useReport } from './context.js'
import { Fold } from './fold.js'
import { Picture } from './screenshot.js'
import { Evidence, Facts, pretty, shorten } from './section-parts.js'

/** A test's anchor: `tool-test-<id>`, the id made safe for an attribute and a fragment. */
export const toolTestAnchor = (id: string): string => `tool-test-${id.toLowerCase().replace(/[^a-z0-9_.-]/g, '-')}`

/** The test's status as a mark and a word: passed, failed, errored, cancelled (a test whose attempts did not all pass failed). */
function testStatus(test: ToolTestResult): [status: string, label: string] {
  if (toolTestPassed(test)) return ['passed', 'passed']
  if (test.status === 'error') return ['warning', 'errored']
  if (test.status === 'cancelled') return ['cancelled', 'cancelled']
  return ['failed', 'failed']
}

const attemptPassed = (a: ToolTestAttempt) => a.status === 'passed' && a.steps.every((s) => s.passed)

function attemptStatus(a: ToolTestAttempt): [string, string] {
  if (attemptPassed(a)) return ['passed', 'passed']
  if (a.status === 'error') return ['warning', 'errored']
  if (a.status === 'cancelled') return ['cancelled', 'cancelled']
  return ['failed', 'failed']
}

/** The tools a test calls, each once, in order. */
const toolsOf = (test: ToolTestResult) => [...new Set(test.attempts.flatMap((a) => a.steps.map((s) => s.tool)))]

function CheckItem({ check }: { check: AssertionCheck }) {
  return (
    <li class="assertion">
      <Status status={check.passed ? 'passed' : 'failed'} /> <code>{check.check}</code>
      {check.path && (
        <>
          {' '}
          at <code>{check.path}</code>
        </>
      )}{' '}
      — {check.reason}
      {!check.passed && (check.check !== 'snapshot' || check.diff === undefined) && (
        <div class="expected-actual">
          <Evidence label="Expected">
            <JsonText value={check.expected} label={`Expected by ${check.check}`} />
          </Evidence>
          <Evidence label="Actual">
            <JsonText value={check.actual} label={`Actual for ${check.check}`} />
          </Evidence>
        </div>
      )}
      {check.diff !== undefined && check.diff !== '' && (
        <Evidence label="Snapshot diff (stored → this run)">
          <LongText text={check.diff.replace(/\n+$/, '')} label="Snapshot diff" />
        </Evidence>
      )}
    </li>
  )
}

function StepResponse({ step }: { step: ToolTestStepResult }) {
  const response = step.response
  if (!response) return <p class="muted">No answer to this call.</p>
  if (response.kind === 'error') {
    return (
      <Evidence label={`Response: JSON-RPC error ${response.code}`}>
        <LongText text={response.data === null || response.data === undefined ? response.message : `${response.message}\n\n${pretty(response.data)}`} label="JSON-RPC error" />
      </Evidence>
    )
  }
  if (response.kind === 'value') {
    const what = isMethodStep(step) && !step.tool.startsWith('resources/read ') ? 'the list as the server listed it' : 'the contents read'
    return (
      <Evidence label={`Response: ${what}`}>
        <JsonText value={response.value} label="Response" />
      </Evidence>
    )
  }
  return (
    <Evidence label={`Response${response.is_error ? ' (isError: true)' : ''}: ${response.structured_content !== null ? 'structuredContent' : 'content'}`}>
      <JsonText value={response.structured_content ?? response.content} label="Response" />
    </Evidence>
  )
}

/** The step's app: its verdict, a link to its render in the MCP Apps section, and its screenshot inline. */
function StepApp({ step }: { step: ToolTestStepResult }) {
  const app = step.app
  if (!app) return null
  const standing = renderStanding(app)
  return (
    <div class="step-app">
      <p>
        App <Status status={standing === 'not-done' ? 'skipped' : standing === 'review' ? 'warning' : standing} label={standing === 'not-done' ? 'not rendered' : standing} />{' '}
        {standing === 'passed' ? '' : `${renderVerdictWords(app)} — `}
        <a href={`#${renderAnchor(app)}`}>render {app.id}</a>
      </p>
      <Picture path={app.screenshot} alt={`screenshot of ${app.tool} (${app.id})`} />
    </div>
  )
}

function Step({ step }: { step: ToolTestStepResult }) {
  const failed = step.checks.filter((c) => !c.passed)
  return (
    <li class="step">
      <p>
        <Status status={step.passed ? 'passed' : 'failed'} /> Step {step.index}: <code>{step.tool}</code> · {ms(step.latency_ms)}
        {step.checks.length > 0 && <span class="muted"> · {count(step.checks.length - failed.length, 'check')} of {step.checks.length} passed</span>}
      </p>
      {/* An evals/v1 resource read or list takes no arguments: its label says what was asked. */}
      {!isMethodStep(step) && (
        <Evidence label="Arguments">
          <JsonText value={step.args} label={`Arguments of step ${step.index}`} />
        </Evidence>
      )}
      {step.checks.length > 0 && (
        <ul class="assertions">
          {[...failed, ...step.checks.filter((c) => c.passed)].map((check, i) => (
            <CheckItem key={i} check={check} />
          ))}
        </ul>
      )}
      <StepApp step={step} />
      {!failed.some((c) => c.diff) && <StepResponse step={step} />}
    </li>
  )
}

function Attempt({ test, attempt }: { test: ToolTestResult; attempt: ToolTestAttempt }) {
  const [status, label] = attemptStatus(attempt)
  return (
    <div class="attempt">
      {test.runs > 1 && (
        <h4>
          Attempt {attempt.attempt} of {test.runs}: <Status status={status} label={label} /> <span class="muted">{ms(attempt.duration_ms)}</span>
        </h4>
      )}
      {attempt.error && (
        <Evidence label="Error">
          <LongText text={attempt.error} label="Error" />
        </Evidence>
      )}
      {attempt.steps.length > 0 && (
        <ol class="steps">
          {attempt.steps.map((step) => (
            <Step key={step.index} step={step} />
          ))}
        </ol>
      )}
      {attempt.stderr_tail && (
        <Evidence label="Server stderr (last lines)">
          <LongText text={attempt.stderr_tail} label="Server stderr" />
        </Evidence>
      )}
    </div>
  )
}

/** One test as a fold at `#tool-test-<id>`: open when it failed, with every attempt, step, call, check and the server's stderr. */
function TestDetails({ test }: { test: ToolTestResult }) {
  const { route } = useReport()
  const anchor = toolTestAnchor(test.id)
  const [status, label] = testStatus(test)
  const why = toolTestFailureWords(test)
  // A failing test shows its failing attempts (the passing ones of pass^k in a line); a passing one shows them all, folded.
  const shown = toolTestFailing(test) ? test.attempts.filter((a) => !attemptPassed(a)) : test.attempts
  const passedAttempts = test.attempts.filter(attemptPassed).map((a) => a.attempt)
  return (
    <Fold
      id={anchor}
      class="tool-test"
      open={toolTestFailing(test) || route === anchor}
      summary={
        <>
          <Status status={status} label={label} /> <code>{test.id}</code>
          {why && <> — {why}</>}
        </>
      }
    >
      {() => (
        <>
          <Facts
            items={[
              ['Tools', toolsOf(test).join(', ') || null],
              ['Attempts', `${passedAttempts.length}/${test.runs} passed${test.runs > 1 ? ` (pass^${test.runs}: every one must pass)` : ''}`],
              ['Time', ms(test.duration_ms)],
              ['Tags', test.tags.length ? test.tags.join(', ') : null]
            ]}
          />
          {shown.length < test.attempts.length && passedAttempts.length > 0 && <p class="muted">Attempts {passedAttempts.join(', ')} passed.</p>}
          {shown.map((attempt) => (
            <Attempt key={attempt.attempt} test={test} attempt={attempt} />
          ))}
          {test.runs - test.attempts.length > 0 && <p class="muted">{count(test.runs - test.attempts.length, 'attempt')} not run.</p>}
        </>
      )}
    </Fold>
  )
}

/**
 * The deterministic tool tests: the tally, a table of every test (the ones that did not pass
 * first) linking to its fold, and each test's fold with its evidence; skipped, why.
 */
export function ToolTests() {
  const { doc } = useReport()
  const section = doc.tool_tests
  if (!section) return null
  if (section.status === 'skipped') {
    return (
      <Section id="tool-tests" title="Tool tests">
        <p>
          <Status status="skipped" /> {section.reason ?? 'skipped'}
        </p>
      </Section>
    )
  }
  const ordered = [...section.tests.filter((t) => !toolTestPassed(t)), ...section.tests.filter(toolTestPassed)]
  const allPassed = section.tests.every(toolTestPassed)
  return (
    <Section id="tool-tests" title="Tool tests">
      <p class="section-verdict">
        <Status status={allPassed ? 'passed' : 'failed'} /> {toolTestCount(section)} · gate: every tool test must pass
      </p>
      {ordered.length > 0 && (
        <table class="tool-tests-table">
          <caption class="muted">Every tool test; the ones that did not pass first. Attempts: attempts that passed, of the runs asked for.</caption>
          <thead>
            <tr>
              <th scope="col">Result</th>
              <th scope="col">Test</th>
              <th scope="col">Tool</th>
              <th scope="col">Attempts</th>
              <th scope="col">Time</th>
              <th scope="col">First failing check</th>
            </tr>
          </thead>
          <tbody>
            {ordered.map((test) => {
              const [status, label] = testStatus(test)
              return (
                <tr key={test.id}>
                  <td>
                    <Status status={status} label={label} />
                  </td>
                  <th scope="row">
                    <a href={`#${toolTestAnchor(test.id)}`}>
                      <code>{test.id}</code>
                    </a>
                  </th>
                  <td>{toolsOf(test).join(', ')}</td>
                  <td class="num">
                    {test.attempts.filter(attemptPassed).length}/{test.runs}
                  </td>
                  <td class="num">{ms(test.duration_ms)}</td>
                  <td>{shorten(toolTestFailureWords(test) ?? '—', 200)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      <div class="subsection">
        <h3>Each test</h3>
        {ordered.map((test) => (
          <TestDetails key={test.id} test={test} />
        ))}
      </div>
    </Section>
  )
}
