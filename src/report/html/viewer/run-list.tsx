import { useEffect, useRef, useState } from 'preact/hooks'
import type { RunResult } from '../../../results/types.js'
import { judgeScore } from '../../run-verdict.js'
import { Status, runAnchor, seconds } from './common.js'
import { useReport } from './context.js'

/** How many rows are rendered at first, and added each time the reader nears the end. */
const RUN_PAGE = 100

/**
 * The runs the filter kept, each a link to its page. Rendered lazily so a 10,000-run document
 * opens fast: the first RUN_PAGE rows, then more when the sentinel after them scrolls into view,
 * with a "Show more" button for a reader (or a browser) without scrolling. ↑/↓ move between rows.
 */
export function RunList({ runs }: { runs: RunResult[] }) {
  // The window belongs to one list: a new filter (a new array) starts again at the first page.
  const [windowed, setWindowed] = useState<{ of: RunResult[]; limit: number }>({ of: runs, limit: RUN_PAGE })
  const limit = windowed.of === runs ? windowed.limit : RUN_PAGE
  const more = () => setWindowed({ of: runs, limit: limit + RUN_PAGE })
  const sentinel = useRef<HTMLDivElement>(null)
  const hasMore = runs.length > limit
  useEffect(() => {
    const target = sentinel.current
    if (!hasMore || !target || typeof IntersectionObserver === 'undefined') return
    // A new observer per window: it reports at once whether the sentinel is still in view, so a tall screen fills up.
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) more()
    }, { rootMargin: '600px 0px' })
    observer.observe(target)
    return () => observer.disconnect()
  }, [runs, limit, hasMore])

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
    const row = (event.target as HTMLElement).closest('li')
    const next = event.key === 'ArrowDown' ? row?.nextElementSibling : row?.previousElementSibling
    const link = next?.querySelector('a')
    if (link) {
      event.preventDefault()
      link.focus()
    }
  }

  return (
    <>
      <ol class="run-list" aria-label="Runs" onKeyDown={onKeyDown}>
        {runs.slice(0, limit).map((run) => (
          <RunRow key={run.index} run={run} />
        ))}
      </ol>
      {hasMore && (
        <div ref={sentinel} class="run-list-more">
          <p class="muted">
            Showing {limit.toLocaleString('en-US')} of {runs.length.toLocaleString('en-US')}; more appear as you scroll.
          </p>
          <button type="button" onClick={more}>
            Show {Math.min(RUN_PAGE, runs.length - limit)} more
          </button>
        </div>
      )}
    </>
  )
}

/** One run as a row: verdict, index, case, model · prompt, repeat, judge score, time, the first reason. */
function RunRow({ run }: { run: RunResult }) {
  const { view } = useReport()
  const reason = view.run_reasons[String(run.index)]?.[0]
  const score = judgeScore(run)
  return (
    <li>
      <a class="run-row" href={`#${runAnchor(run)}`} data-run={run.index}>
        <span class="run-status">
          <Status status={run.status} />
        </span>
        <span class="run-index">#{run.index}</span>
        <span class="run-case">
          <code>{run.case_id}</code>
        </span>
        <span class="run-model">
          {run.model} · {run.prompt_name}
        </span>
        <span class="run-attempt">
          run {run.attempt}/{run.attempts}
        </span>
        <span class="run-score">{score === null ? 'not judged' : `judge ${score}`}</span>
        <span class="run-time">{seconds(run.duration_s)}</span>
        {reason !== undefined && <span class="run-reason">{reason}</span>}
      </a>
    </li>
  )
}
