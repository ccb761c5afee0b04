import type { RunResult } from '../../../results/types.js'
import { ms } from './common.js'
import { useReport } from './context.js'
import { Heading } from './heading.js'
import { callAnchor, runPartAnchor } from './run-anchors.js'
import { timelineOf, type TimelineItem, type TimelineKind } from './run-timeline-model.js'

const LANES: [TimelineKind, string][] = [
  ['server', 'Server'],
  ['llm', 'LLM'],
  ['tool', 'Tools'],
  ['judge', 'Judge']
]
const WIDTH = 880
const LABEL_W = 70
const LANE_H = 30
const BAR_H = 18
const AXIS_H = 24

/** Ticks at a round step (1, 2 or 5 × 10ⁿ ms), about five across the axis. */
function ticks(total: number): number[] {
  if (total <= 0) return [0]
  const rough = total / 5
  const pow = 10 ** Math.floor(Math.log10(rough))
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= rough) ?? rough
  const out: number[] = []
  for (let t = 0; t <= total + 1e-9; t += step) out.push(t)
  return out
}

const describe = (item: TimelineItem) => `${item.label}: ${ms(item.duration_ms)} from ${ms(item.start_ms)}${item.status === 'error' ? ', ✗ error' : ''}${item.notes.length ? ` (${item.notes.join('; ')})` : ''}`

/**
 * The run on a time axis: a lane each for the server's start, the LLM calls, the tool calls and
 * the judge, every step a bar with its title. The document has durations, not start times, so
 * the steps are laid end to end in the order they ran (the caption says so). Clicking a tool
 * call's bar goes to that call; the chart is one image (role="img", no controls inside it), so the
 * keyboard's way there is the same steps' table below it, whose tool calls are links.
 */
export function Timeline({ run }: { run: RunResult }) {
  const { go } = useReport()
  const timeline = timelineOf(run)
  const { items, total_ms } = timeline
  const id = runPartAnchor(run, 'timeline')
  const heading = (
    <Heading level={3} id={id}>
      Timeline
    </Heading>
  )
  if (items.length === 0)
    return (
      <section class="run-part" aria-labelledby={id}>
        {heading}
        <p class="muted">Nothing was timed: the run made no call.</p>
      </section>
    )
  const lanes = LANES.filter(([kind]) => items.some((i) => i.kind === kind))
  const height = lanes.length * LANE_H + AXIS_H
  const span = Math.max(total_ms, 1)
  const x = (t: number) => LABEL_W + (t / span) * (WIDTH - LABEL_W - 10)
  const laneY = (kind: TimelineKind) => lanes.findIndex(([k]) => k === kind) * LANE_H
  const tally = (kind: TimelineKind) => items.filter((i) => i.kind === kind).length
  const label = `Timeline of run ${run.index}, ${ms(total_ms)} in all: ${tally('llm')} LLM call${tally('llm') === 1 ? '' : 's'}, ${tally('tool')} tool call${tally('tool') === 1 ? '' : 's'}, ${tally('judge')} judge call${tally('judge') === 1 ? '' : 's'}`
  return (
    <section class="run-part" aria-labelledby={id}>
      {heading}
      <figure class="timeline">
        <svg class="timeline-chart" viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={label} preserveAspectRatio="xMinYMin meet">
          {lanes.map(([kind, name]) => (
            <g key={kind} class="lane">
              <text x={4} y={laneY(kind) + LANE_H / 2 + 4} class="lane-label">
                {name}
              </text>
              <line x1={LABEL_W} x2={WIDTH - 10} y1={laneY(kind) + LANE_H} y2={laneY(kind) + LANE_H} class="lane-rule" />
            </g>
          ))}
          {ticks(span).map((t) => (
            <g key={t} class="tick">
              <line x1={x(t)} x2={x(t)} y1={0} y2={lanes.length * LANE_H + 4} />
              <text x={x(t)} y={height - 6} text-anchor="middle">
                {ms(t)}
              </text>
            </g>
          ))}
          {items.map((item, k) => {
            const bar = (
              <g onClick={item.kind === 'tool' && item.call_index !== undefined ? () => go(callAnchor(run, item.call_index!)) : undefined} class={`bar bar-${item.kind} bar-${item.status}${item.notes.some((n) => n.startsWith('fault') || n.startsWith('attack')) ? ' bar-marked' : ''}${item.notes.includes('sampling') ? ' bar-sampling' : ''}`} data-kind={item.kind}>
                <title>{describe(item)}</title>
                <rect x={x(item.start_ms)} y={laneY(item.kind) + (LANE_H - BAR_H) / 2} width={Math.max(2, x(item.start_ms + item.duration_ms) - x(item.start_ms))} height={BAR_H} rx={2} />
              </g>
            )
            return <g key={k}>{bar}</g>
          })}
        </svg>
        <figcaption class="muted">
          Reconstructed from the recorded durations, in order: the document keeps how long each step took, not when it started. {timeline.unplaced}
        </figcaption>
      </figure>
      <details class="timeline-table">
        <summary>The timeline as a table ({items.length} steps)</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Kind</th>
              <th scope="col">From</th>
              <th scope="col">Took</th>
              <th scope="col">Status</th>
              <th scope="col">Notes</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, k) => (
              <tr key={k}>
                <th scope="row">{item.kind === 'tool' && item.call_index !== undefined ? <a href={`#${callAnchor(run, item.call_index)}`}>{item.label}</a> : item.label}</th>
                <td>{LANES.find(([kind]) => kind === item.kind)?.[1]}</td>
                <td>{ms(item.start_ms)}</td>
                <td>{ms(item.duration_ms)}</td>
                <td>{item.status === 'error' ? '✗ error' : '✓ ok'}</td>
                <td>{item.notes.join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  )
}
