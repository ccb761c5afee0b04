import type { ResilienceCell, ResilienceSummary } from '../../../results/resilience.js'
import type { RunResult } from '../../../results/run.js'
import { evidenceWords } from '../../resilience.js'
import { count, percent, runAnchor, Section, Status } from './common.js'
import { useReport } from './context.js'
import { shorten } from './section-parts.js'

type Dimension = 'faults' | 'attacks'

/** What a cell counts over: a fault fires, an attack is delivered; said of the planned runs where it did not. */
const NOT_COUNTED: Record<Dimension, string> = { faults: 'not triggered', attacks: 'not delivered' }

/** An attack's cell key, as the aggregate makes it (src/aggregate/resilience.ts attackKey): the payload, and how it was planted when not in tool output. */
const attackKey = (attack: { attack: string; payload: string }) => (attack.attack === 'tool_output' ? attack.payload : `${attack.payload} via ${attack.attack}`)


/** How much of an oracle's reason the one line shows. */
const REASON_CHARS = 300

const keysOf = (summary: ResilienceSummary, dimension: Dimension) => [...new Set(summary.by_model.flatMap((m) => m[dimension].map((c) => c.key)))]
const judged = (run: RunResult) => run.status !== 'cancelled' && run.status !== 'skipped'

interface FailedRun {
  run: RunResult
  /** The oracle's reason or evidence, in one line. */
  why: string
}

/**
 * The runs that failed a cell. For a fault: the model's runs of a case that planned it (the
 * document keeps no cases, so a case planned the fault when it fired in any of its runs, on any
 * model) where it did not fire, so the run tested nothing, or fired and the run did not pass; and a
 * run whose recovery oracle says no fault fired at all. For an attack: the model's runs whose
 * attack of that key was not delivered or not resisted.
 */
function failedRuns(runs: RunResult[], model: string, dimension: Dimension, key: string, reasons: Record<string, string[]>): FailedRun[] {
  const mine = runs.filter((r) => r.model === model && judged(r))
  if (dimension === 'faults') {
    const firedIn = (run: RunResult) => run.tool_calls.some((c) => c.fault?.kind === key)
    const planned = new Set(runs.filter(firedIn).map((r) => r.case_id))
    return mine.flatMap((run) => {
      if (firedIn(run)) {
        if (run.status === 'passed') return []
        return [{ run, why: run.recovery && !run.recovery.passed ? `recovery failed: ${run.recovery.reason}` : (reasons[String(run.index)]?.[0] ?? `the run ${run.status}`) }]
      }
      if (planned.has(run.case_id)) return [{ run, why: `the ${key} fault never fired in this run, so it tested nothing${run.recovery ? `: ${run.recovery.reason}` : ''}` }]
      if (!run.tool_calls.some((c) => c.fault) && run.recovery && !run.recovery.triggered) return [{ run, why: `the fault never fired: ${run.recovery.reason}` }]
      return []
    })
  }
  return mine.flatMap((run) =>
    (run.security?.attacks ?? [])
      .filter((a) => attackKey(a) === key && (!a.delivered || !a.resisted))
      .map((a) => {
        if (!a.delivered) return { run, why: `attack ${a.payload} never reached the model, so it tested nothing` }
        const evidence = a.evidence.map((e) => `${e.tool_call_index === null ? 'the answer' : `tool call ${e.tool_call_index + 1}${e.tool ? ` ${e.tool}` : ''}`}: ${evidenceWords(e.kind)} — ${e.detail}`)
        return { run, why: `attack ${a.payload} succeeded (canary ${a.canary})${evidence.length ? `: ${evidence.join('; ')}` : ''}` }
      })
  )
}

function Cell({ cell, dimension }: { cell: ResilienceCell | undefined; dimension: Dimension }) {
  if (!cell) return <td class="cell-none">—</td>
  const missing = cell.planned - cell.counted
  return (
    <td class={`res-cell ${cell.success ? 'cell-pass' : 'cell-fail'}`}>
      <Status status={cell.success ? 'passed' : 'failed'} label={cell.success ? 'reached floor' : 'below floor'} />
      <div>{cell.counted > 0 ? `${dimension === 'faults' ? 'recovered' : 'resisted'} ${cell.passed}/${cell.counted}` : 'not tested'}</div>
      <div class="muted">
        {cell.counted} of {cell.planned} planned counted{missing > 0 ? ` (${missing} ${NOT_COUNTED[dimension]})` : ''} · rate {percent(cell.rate)} · floor {percent(cell.floor)}
      </div>
    </td>
  )
}

function Matrix({ summary, dimension }: { summary: ResilienceSummary; dimension: Dimension }) {
  const keys = keysOf(summary, dimension)
  if (keys.length === 0) return null
  const title = dimension === 'faults' ? 'Recovery from faults' : 'Attack resistance'
  return (
    <div class="subsection">
      <h3 id={`resilience-${dimension}`}>{title}</h3>
      <table class="resilience-matrix">
        <caption class="muted">
          {dimension === 'faults'
            ? 'Recovered k/N: runs that passed (rubric, assertions and the recovery oracle) of the N where the fault fired.'
            : 'Resisted k/N: delivered attacks the model did not act on.'}{' '}
          ✓ reached the floor · ✗ below it, or a planned run that tested nothing ({NOT_COUNTED[dimension]}).
        </caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            {keys.map((key) => (
              <th scope="col" key={key}>
                <code>{key}</code>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {summary.by_model.map((m) => (
            <tr key={m.model}>
              <th scope="row">
                <code>{m.model}</code>
              </th>
              {keys.map((key) => (
                <Cell key={key} cell={m[dimension].find((c) => c.key === key)} dimension={dimension} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** "Recovery from faults 4/5 (80%)": over every model and key, as the report's totals line says it. */
function total(summary: ResilienceSummary, dimension: Dimension, label: string, unit: string): string {
  const cells = summary.by_model.flatMap((m) => m[dimension])
  if (cells.length === 0) return ''
  const counted = cells.reduce((n, c) => n + c.counted, 0)
  const passed = cells.reduce((n, c) => n + c.passed, 0)
  return counted === 0 ? `${label}: not tested (no ${unit})` : `${label} ${passed}/${counted} (${percent(passed / counted)})`
}

function FailedCells({ summary }: { summary: ResilienceSummary }) {
  const { doc, view } = useReport()
  const failing = summary.by_model.flatMap((m) => (['faults', 'attacks'] as const).flatMap((d) => m[d].filter((c) => !c.success).map((cell) => ({ model: m.model, dimension: d, cell }))))
  if (failing.length === 0) return null
  return (
    <div class="subsection">
      <h3>Cells below their floor ({failing.length})</h3>
      <ul class="failed-cells">
        {failing.map(({ model, dimension, cell }) => {
          const runs = failedRuns(doc.runs, model, dimension, cell.key, view.run_reasons)
          return (
            <li key={`${model} ${dimension} ${cell.key}`}>
              <Status status="failed" label="below floor" /> <code>{model}</code> {dimension === 'faults' ? 'recovered from' : 'resisted'} <code>{cell.key}</code>: {cell.passed}/{cell.counted} (floor{' '}
              {percent(cell.floor)})
              {runs.length > 0 ? (
                <ul>
                  {runs.map(({ run, why }, i) => (
                    <li key={`${run.index}-${i}`}>
                      <a href={`#${runAnchor(run)}`}>
                        Run {run.index} ({run.case_id} · {run.prompt_name}
                        {run.attempts > 1 ? ` · run ${run.attempt} of ${run.attempts}` : ''})
                      </a>{' '}
                      — {shorten(why, REASON_CHARS)}
                    </li>
                  ))}
                </ul>
              ) : (
                <p class="muted">No run of this model records a failure of it{cell.planned > cell.counted ? ` (${count(cell.planned - cell.counted, 'planned run')} tested nothing)` : ''}.</p>
              )}
            </li>
          )
        })}
      </ul>
    </div>
  )
}

/**
 * Resilience and security: per model, the fault kinds and attack payloads as cells (k/N,
 * counted/planned, the floor, ✓/✗), the overall recovery rate and attack resistance, and for each
 * cell below its floor the runs that failed it, each linked to its page with the oracle's reason.
 */
export function Resilience() {
  const { doc } = useReport()
  const summary = doc.summary.resilience
  const cells = summary ? summary.by_model.flatMap((m) => [...m.faults, ...m.attacks]) : []
  const failing = cells.filter((c) => !c.success).length
  return (
    <Section id="resilience" title="Resilience and security">
      {summary && cells.length > 0 ? (
        <>
          <p class="section-verdict">
            <Status status={failing === 0 ? 'passed' : 'failed'} label={failing === 0 ? 'every cell reached its floor' : `${failing} of ${count(cells.length, 'cell')} below ${cells.length === 1 ? 'its' : 'their'} floor`} />
          </p>
          <p>{[total(summary, 'faults', 'Recovery from faults', 'fault fired'), total(summary, 'attacks', 'Attack resistance', 'attack was delivered')].filter(Boolean).join(' · ')}</p>
          <p class="muted">
            Overall recovery rate {percent(summary.recovery_rate)} · attack resistance {percent(summary.attack_resistance)}
          </p>
          <Matrix summary={summary} dimension="faults" />
          <Matrix summary={summary} dimension="attacks" />
          <FailedCells summary={summary} />
        </>
      ) : (
        <p class="muted">No fault fired and no attack was planned in a run that finished.</p>
      )}
    </Section>
  )
}
