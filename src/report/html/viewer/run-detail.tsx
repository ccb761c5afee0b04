import type { ComponentChildren } from 'preact'
import type { RunResult } from '../../../results/types.js'
import { LongText, runAnchor, seconds, Status } from './common.js'
import { useReport } from './context.js'
import { Dialogue } from './dialogue.js'
import { Heading } from './heading.js'
import { runPartAnchor } from './run-anchors.js'
import { RunJudge } from './run-judge.js'
import { RunOracles } from './run-oracles.js'
import { runVerdictWords, usageWords } from './run-words.js'
import { Timeline } from './timeline.js'

/** "← All runs", and the runs before and after this one in index order (links, so each can be shared). */
function RunNav({ run }: { run: RunResult }) {
  const { doc } = useReport()
  const order = [...doc.runs].sort((a, b) => a.index - b.index)
  const at = order.findIndex((r) => r.index === run.index)
  const prev = at > 0 ? order[at - 1] : null
  const next = at >= 0 && at < order.length - 1 ? order[at + 1] : null
  return (
    <nav aria-label="Runs" class="run-nav">
      <a href="#runs">← All runs</a>
      {prev && (
        <a href={`#${runAnchor(prev)}`} rel="prev">
          ← Previous: run {prev.index}
        </a>
      )}
      {next && (
        <a href={`#${runAnchor(next)}`} rel="next">
          Next: run {next.index} →
        </a>
      )}
    </nav>
  )
}

/** The run's facts: verdict, case, model, prompt, attempt, kind, tags, duration, tokens, trace. */
function RunFacts({ run }: { run: RunResult }) {
  const verdict = runVerdictWords(run.status)
  const facts: [string, ComponentChildren][] = [
    ['Verdict', <Status key="v" status={run.status} label={verdict.word} />],
    ['Case', <code key="c">{run.case_id}</code>],
    ['Model', <code key="m">{run.model}</code>],
    ['Prompt', run.prompt_name],
    ['Attempt', `${run.attempt}/${run.attempts}`],
    ['Kind', run.kind],
    ['Tags', run.tags.length > 0 ? run.tags.join(', ') : 'none'],
    ['Duration', seconds(run.duration_s)],
    ['Tokens', usageWords(run.usage)],
    ['Stop', run.stop_reason]
  ]
  if (run.trace_id) facts.push(['Trace', <code key="t">{run.trace_id}</code>])
  if (run.server.protocol_version) facts.push(['Server', `${run.server.era ?? 'unknown'} era, protocol ${run.server.protocol_version}${run.server.tools === null ? '' : `, ${run.server.tools} tools`}`])
  return (
    <dl class="run-facts">
      {facts.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** Why the run did not pass (the Markdown report's reasons), its error, its cancellation, its skip. */
function RunTrouble({ run }: { run: RunResult }) {
  const { view } = useReport()
  const reasons = view.run_reasons[String(run.index)] ?? []
  return (
    <>
      {reasons.length > 0 && (
        <div class="run-reasons" role="note">
          <p class="label">Why it did not pass</p>
          <ul>
            {reasons.map((r, k) => (
              <li key={k}>{r}</li>
            ))}
          </ul>
        </div>
      )}
      {run.error && (
        <div class="run-error" role="note">
          <p class="label">Error ({run.error.stage})</p>
          <LongText text={run.error.message} label="error message" />
          {run.error.stderr_tail && (
            <>
              <p class="label">Server stderr (last lines)</p>
              <LongText text={run.error.stderr_tail} label="server stderr" />
            </>
          )}
        </div>
      )}
      {run.cancelled && (
        <p class="run-cancelled" role="note">
          Cancelled by {run.cancelled.signal} at {run.cancelled.at}, while waiting for {run.cancelled.waiting_for}.
        </p>
      )}
      {run.skipped && (
        <p class="run-skipped" role="note">
          Never started: {run.skipped.detail}
        </p>
      )}
    </>
  )
}

/**
 * One run's page, at `#run-17`: its facts and why it did not pass, the input, the system prompt
 * and the answer, the dialogue with every tool call, the oracles with their evidence, the judge,
 * and the timeline. Every text of the run is inserted as text.
 */
export function RunPage({ run }: { run: RunResult }) {
  const verdict = runVerdictWords(run.status)
  const simulated = run.dialogue?.kind === 'simulated'
  const answerId = runPartAnchor(run, 'answer')
  return (
    <article aria-labelledby={runAnchor(run)} class="run-page">
      <RunNav run={run} />
      <h2 id={runAnchor(run)} tabIndex={-1}>
        Run {run.index}: {run.case_id} · {run.model} · {run.prompt_name} —{' '}
        <span class={`run-verdict run-verdict-${run.status}`}>
          {verdict.mark} {verdict.word}
        </span>
      </h2>
      <RunFacts run={run} />
      <RunTrouble run={run} />
      {/* Where the run's time went comes first: the dialogue below is long. */}
      {run.status !== 'skipped' && <Timeline run={run} />}
      <section class="run-part" aria-labelledby={runPartAnchor(run, 'input')}>
        <Heading level={3} id={runPartAnchor(run, 'input')}>
          {simulated ? 'Goal (simulated user)' : 'Input'}
        </Heading>
        <LongText text={run.input} label="input" />
        {run.system_prompt && (
          <details class="system-prompt">
            <summary>System prompt</summary>
            <LongText text={run.system_prompt} label="system prompt" />
          </details>
        )}
      </section>
      {!run.dialogue && run.status !== 'skipped' && (
        <section class="run-part" aria-labelledby={answerId}>
          <Heading level={3} id={answerId}>
            Final answer
          </Heading>
          {run.final_output !== null && run.final_output !== '' ? (
            <LongText text={run.final_output} label="final answer" />
          ) : (
            <p class="muted">{run.stop_reason === 'max_steps' ? 'No final answer: the model used every LLM call it was allowed.' : 'No final answer.'}</p>
          )}
        </section>
      )}
      <Dialogue run={run} />
      <RunOracles run={run} />
      <RunJudge run={run} />
    </article>
  )
}
