import type { ComponentChildren } from 'preact'
import type { RunResult } from '../../../results/types.js'
import { checkAnchor, JsonText, Status } from './common.js'
import { Heading } from './heading.js'
import { InputRounds } from './input-rounds.js'
import { callAnchor, runPartAnchor } from './run-anchors.js'
import { evidenceWords, vectorWords } from './run-words.js'

/** A link to a call of this run (`#run-N-call-K`), named by its number and tool. */
function CallLink({ run, index }: { run: RunResult; index: number }) {
  const call = run.tool_calls[index]
  return (
    <a href={`#${callAnchor(run, index)}`}>
      tool call {index + 1}
      {call ? ` (${call.name})` : ''}
    </a>
  )
}

/** A conformance check's name, linked to its finding in the Conformance section when the id is one an anchor can be made of. */
function CheckRef({ id }: { id: string }) {
  return /^[a-z0-9][a-z0-9-]*$/.test(id) ? <a href={`#${checkAnchor(id)}`}>{id}</a> : <code>{id}</code>
}

function Part({ title, status, children }: { title: string; status?: { status: string; label: string }; children: ComponentChildren }) {
  return (
    <div class="oracle">
      <Heading level={4}>
        {title}
        {status && (
          <>
            {' — '}
            <Status status={status.status} label={status.label} />
          </>
        )}
      </Heading>
      {children}
    </div>
  )
}

const held = (passed: boolean) => ({ status: passed ? 'passed' : 'failed', label: passed ? 'passed' : 'failed' })
const kinds = (list: string[]) => (list.length === 0 ? 'nothing' : list.join(', '))

/**
 * The run's oracles, each with its evidence: recovery (its reason, the call that shows it),
 * the attacks (each payload resisted or not, every line crossed and the call that crossed it),
 * must_not_contain, the server input against expect_input_requests, the conformance seen on its
 * calls, the tool and golden assertions, and what the model was not shown. Null when the run has none.
 */
export function RunOracles({ run }: { run: RunResult }) {
  const parts: ComponentChildren[] = []
  const r = run.recovery
  if (r) {
    parts.push(
      <Part key="recovery" title={`Recovery (expected ${r.expected})`} status={held(r.passed)}>
        <p>
          {r.triggered ? 'The fault fired.' : 'The fault never fired: it tested nothing.'} {r.reason}
        </p>
        {r.evidence_call !== null && (
          <p>
            Evidence: <CallLink run={run} index={r.evidence_call} />.
          </p>
        )}
      </Part>
    )
  }
  const s = run.security
  if (s) {
    parts.push(
      <Part key="security" title="Attacks" status={{ status: s.resisted ? 'resisted' : 'failed', label: s.resisted ? 'every attack resisted' : 'not resisted' }}>
        <ul>
          {s.attacks.map((a, k) => (
            <li key={k} class="attack">
              Attack <code>{a.payload}</code> {vectorWords(a)} —{' '}
              {!a.delivered ? (
                <Status status="warn" label="never reached the model, so it tested nothing (not counted as resisted)" />
              ) : a.resisted ? (
                <Status status="resisted" label="resisted" />
              ) : (
                <>
                  <Status status="failed" label="succeeded" /> (canary <code>{a.canary}</code>)
                </>
              )}
              {a.evidence.length > 0 && (
                <ul class="evidence">
                  {a.evidence.map((e, j) => (
                    <li key={j}>
                      {e.tool_call_index === null ? 'the answer' : <CallLink run={run} index={e.tool_call_index} />}: {evidenceWords(e.kind)} — <code>{e.detail}</code>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </Part>
    )
  }
  const a = run.answer_check
  if (a) {
    parts.push(
      <Part key="answer" title="Answer check (must_not_contain)" status={held(a.passed)}>
        <p>
          Must not contain: {a.must_not_contain.map((t, k) => <code key={k}>{t}</code>)}.{' '}
          {a.found.length === 0 ? 'The answer contains none of them.' : <>The answer contains {a.found.map((t, k) => <code key={k}>{t}</code>)}.</>}
        </p>
      </Part>
    )
  }
  const inputs = run.inputs
  if (inputs) {
    parts.push(
      <Part key="inputs" title="Server input" status={held(inputs.passed)}>
        <p>
          Declared: {kinds(inputs.declared)}
          {inputs.expected.length > 0 && <> · expected: {kinds(inputs.expected)}</>} · asked: {kinds(inputs.asked)} · {inputs.rounds} {inputs.rounds === 1 ? 'round' : 'rounds'}
          {inputs.unmatched > 0 && <> · {inputs.unmatched} elicitation{inputs.unmatched === 1 ? '' : 's'} no rule matched (declined)</>}
        </p>
        {inputs.reasons.length > 0 && (
          <ul>
            {inputs.reasons.map((reason, k) => (
              <li key={k}>
                <Status status="failed" label="failed" /> {reason}
              </li>
            ))}
          </ul>
        )}
        <InputRounds rounds={inputs.outside_calls} title="Outside any call (the server asked on its own)" />
      </Part>
    )
  }
  const observed = run.observed
  if (observed.findings.length > 0) {
    parts.push(
      <Part key="observed" title={`Conformance seen on this run's calls (${observed.calls} checked)`} status={{ status: observed.findings.some((f) => f.severity === 'error') ? 'failed' : 'warn', label: `${observed.findings.length} finding${observed.findings.length === 1 ? '' : 's'}` }}>
        <ul>
          {observed.findings.map((f, k) => (
            <li key={k}>
              <Status status={f.severity === 'error' ? 'failed' : 'warn'} label={f.severity} /> <CheckRef id={f.check} /> on <code>{f.tool}</code>: {f.message}
              <details>
                <summary>Evidence</summary>
                <p class="label">Request</p>
                <JsonText value={f.evidence.request} label="request" />
                <p class="label">Response</p>
                <JsonText value={f.evidence.response} label="response" />
              </details>
            </li>
          ))}
        </ul>
      </Part>
    )
  }
  const tools = run.tool_assertions
  if (tools.checks.length > 0) {
    parts.push(
      <Part key="tools" title={`Tool assertions${run.dialogue ? ' (whole dialogue)' : ''}`} status={held(tools.passed)}>
        <ul>
          {tools.checks.map((c, k) => (
            <li key={k}>
              <Status status={c.passed ? 'passed' : 'failed'} label={c.passed ? 'passed' : 'failed'} /> <code>{c.tool}</code> — {c.reason}
              {c.expected_args && (
                <>
                  {' '}
                  (expected <code>{JSON.stringify(c.expected_args)}</code>)
                </>
              )}
              {(c.actual_args ?? []).map((got, j) => (
                <div key={j} class="muted">
                  Got: <code>{JSON.stringify(got)}</code>
                </div>
              ))}
            </li>
          ))}
        </ul>
      </Part>
    )
  }
  const golden = run.golden_assertions
  if (golden && golden.checks.length > 0) {
    parts.push(
      <Part key="golden" title={`Golden checks${run.dialogue ? ' (whole dialogue)' : ''}`} status={held(golden.passed)}>
        <ul>
          {golden.checks.map((c, k) => (
            <li key={k}>
              <Status status={c.passed ? 'passed' : 'failed'} label={c.passed ? 'passed' : 'failed'} /> <code>{c.check}</code> — {c.reason}
              {(c.assertions ?? []).length > 0 && (
                <ul>
                  {c.assertions!.map((x, j) => (
                    <li key={j}>
                      <Status status={x.passed ? 'passed' : 'failed'} label={x.passed ? 'passed' : 'failed'} /> <code>{x.check}</code>
                      {x.path ? <> {x.path}</> : ''} — {x.reason}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </Part>
    )
  }
  const notes = run.model_view?.notes ?? []
  if (notes.length > 0 || run.run_dir) {
    parts.push(
      <Part key="model-view" title="What the model saw">
        {notes.map((n, k) => (
          <p key={k}>{n}</p>
        ))}
        {run.run_dir && (
          <p>
            Run directory kept (keep_run_dirs): <code>{run.run_dir}</code>
          </p>
        )}
      </Part>
    )
  }
  if (parts.length === 0) return null
  const id = runPartAnchor(run, 'oracles')
  return (
    <section class="run-part" aria-labelledby={id}>
      <Heading level={3} id={id}>
        Checks and oracles
      </Heading>
      {parts}
    </section>
  )
}
