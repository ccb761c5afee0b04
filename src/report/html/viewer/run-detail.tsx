import type { RunResult } from '../../../results/types.js'
import { runAnchor } from './common.js'

/** One run's page, at `#run-17` (to be filled in). */
export function RunPage({ run }: { run: RunResult }) {
  return (
    <article aria-labelledby={runAnchor(run)} class="run-page">
      <p>
        <a href="#runs">← All runs</a>
      </p>
      <h2 id={runAnchor(run)} tabIndex={-1}>
        Run {run.index}: {run.case_id} · {run.model} · {run.prompt_name}
      </h2>
    </article>
  )
}
