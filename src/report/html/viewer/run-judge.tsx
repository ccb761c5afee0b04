import type { RunResult } from '../../../results/types.js'
import { ms, percent, Status } from './common.js'
import { Heading } from './heading.js'
import { runPartAnchor } from './run-anchors.js'
import { usageWords } from './run-words.js'

/**
 * The judge: its score against the threshold, its reason, the evaluation steps it followed, how
 * it scored (logprob or integer, and the note), its model, time and tokens, or its error; then
 * every metric of the run. Null when the run was neither judged nor has metrics.
 */
export function RunJudge({ run }: { run: RunResult }) {
  const judge = run.judge
  const metrics = run.metrics
  if (!judge && metrics.length === 0) return null
  const id = runPartAnchor(run, 'judge')
  const passed = judge && judge.score !== null && judge.error === null ? judge.score >= judge.threshold : null
  return (
    <section class="run-part" aria-labelledby={id}>
      <Heading level={3} id={id}>
        Judge{run.dialogue ? ' (whole dialogue)' : ''}
      </Heading>
      {judge && (
        <div class="judge">
          <p class="judge-score">
            Score {judge.score === null ? 'none' : percent(judge.score)} (threshold {percent(judge.threshold)})
            {judge.raw_score !== null && ` · raw score ${judge.raw_score}`}
            {passed !== null && (
              <>
                {' '}
                <Status status={passed ? 'passed' : 'failed'} label={passed ? 'reached the threshold' : 'below the threshold'} />
              </>
            )}
          </p>
          {judge.error && (
            <p>
              <Status status="error" label="judge error" /> {judge.error}
            </p>
          )}
          <p class="label">Reason</p>
          <blockquote class="judge-reason">{judge.reason || 'No judge comment'}</blockquote>
          {judge.evaluation_steps.length > 0 && (
            <>
              <p class="label">Evaluation steps</p>
              <ol class="judge-steps">
                {judge.evaluation_steps.map((step, k) => (
                  <li key={k}>{step}</li>
                ))}
              </ol>
            </>
          )}
          <p class="muted">
            {judge.model}
            {judge.scoring_mode ? ` · ${judge.scoring_mode} scoring` : ''}
            {judge.scoring_note ? ` (${judge.scoring_note})` : ''} · {ms(judge.latency_ms)} · {usageWords(judge.usage)}
          </p>
        </div>
      )}
      {metrics.length > 0 && (
        <table class="metrics">
          <caption>Metrics</caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Score</th>
              <th scope="col">Verdict</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {metrics.map((m, k) => (
              <tr key={k}>
                <th scope="row">{m.name}</th>
                <td>{m.score === null ? 'N/A' : percent(m.score)}</td>
                <td>
                  <Status status={m.success ? 'passed' : 'failed'} />
                </td>
                <td>{m.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
