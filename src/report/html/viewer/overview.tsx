import type { GateResult, ResultsDocument } from '../../../results/types.js'
import type { ChangesView } from '../view-types.js'
import { usd } from '../../../util/words.js'
import { Section, Status, count, seconds } from './common.js'
import { useReport } from './context.js'
import { MatrixTable } from './matrix.js'

/**
 * The Overview: the gate and its reasons, each layer's status (linking to its section), what
 * moved against the baseline, cost and time, and the cases × models matrix. The verdict and the
 * headline are the page header's.
 */
export function Overview() {
  const { doc, view } = useReport()
  return (
    <Section id="overview" title="Overview">
      {doc.fatal_error !== null && (
        <p class="fatal">
          <Status status="failed" label="The evaluation could not run:" /> {doc.fatal_error}
        </p>
      )}
      {doc.gate && <Gate gate={doc.gate} />}
      {view.layers.length > 0 && <Layers />}
      {view.changes && doc.gate && <Changes changes={view.changes} gate={doc.gate} />}
      <CostAndTime doc={doc} />
      {doc.groups.length > 0 && (
        <>
          <h3 id="matrix-heading">Cases × models</h3>
          <MatrixTable />
        </>
      )}
    </Section>
  )
}

/** "Gate: absolute — ✓ passed", against which baseline, why it failed. */
function Gate({ gate }: { gate: GateResult }) {
  return (
    <div class="gate">
      <h3>Gate</h3>
      <p>
        Gate: <strong>{gate.mode}</strong>
        {gate.baseline && (
          <>
            {' '}
            against the baseline <code>{gate.baseline.source}</code> ({gate.baseline.started_at.slice(0, 16).replace('T', ' ')})
          </>
        )}{' '}
        — <Status status={gate.passed ? 'passed' : 'failed'} />
        {gate.note && <span class="muted"> ({gate.note})</span>}
      </p>
      {gate.reasons.length > 0 && (
        <ul class="gate-reasons">
          {gate.reasons.map((reason, i) => (
            <li key={i}>{reason}</li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** Each layer's status in the order they run, its name a link to its section. */
function Layers() {
  const { doc, view } = useReport()
  // The run list is left out of a document without runs: its layer is named, not linked.
  const linked = (anchor: string) => anchor !== 'runs' || doc.runs.length > 0
  return (
    <>
      <h3>Layers</h3>
      <table class="layers">
        <thead>
          <tr>
            <th scope="col">Layer</th>
            <th scope="col">Status</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {view.layers.map((layer) => (
            <tr key={layer.id}>
              <th scope="row">
                {linked(layer.anchor) ? <a href={`#${layer.anchor}`}>{layer.name}</a> : layer.name}
              </th>
              <td>
                <Status status={layer.status === 'warning' ? 'warn' : layer.status} label={layer.status} />
              </td>
              <td>{layer.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}

/** What moved since the baseline: the metrics (the worse first), the groups, cost and median run. */
function Changes({ changes, gate }: { changes: ChangesView; gate: GateResult }) {
  const groups: [string, string[]][] = [
    ['regressed', gate.regressed],
    ['fixed', gate.fixed],
    ['new', gate.added],
    ['removed', gate.removed]
  ]
  return (
    <div class="changes">
      <h3>Against the baseline</h3>
      <p>
        Baseline: <code>{changes.baseline}</code>
      </p>
      {changes.metrics.length > 0 && (
        <table class="changes-metrics">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Baseline</th>
              <th scope="col">Now</th>
              <th scope="col">Δ</th>
            </tr>
          </thead>
          <tbody>
            {changes.metrics.map((m) => (
              <tr key={m.label}>
                <th scope="row">{m.label}</th>
                <td class="num">{m.baseline}</td>
                <td class="num">{m.current}</td>
                <td class={m.worse ? 'delta-worse' : m.worse === false ? 'delta-better' : ''}>
                  {m.delta}
                  {m.failed && (
                    <>
                      {' '}
                      <Status status="failed" label={`worse by more than ${Math.round(gate.max_drop * 1000) / 10} pt`} />
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {changes.unchanged.length > 0 && (
        <p class="muted">
          {count(changes.unchanged.length, 'metric')} unchanged: {changes.unchanged.join(' · ')}
        </p>
      )}
      <p>
        Groups:{' '}
        {groups.map(([word, list], i) => (
          <span key={word}>
            {i > 0 && ' · '}
            {word === 'regressed' && list.length > 0 ? <strong>{`${list.length} regressed`}</strong> : `${list.length} ${word}`}
          </span>
        ))}
      </p>
      {groups.some(([, list]) => list.length > 0) && (
        <ul class="changed-groups">
          {groups
            .filter(([, list]) => list.length > 0)
            .map(([word, list]) => (
              <li key={word}>
                {word[0].toUpperCase() + word.slice(1)}: {list.slice(0, 20).join(', ')}
                {list.length > 20 && `, and ${list.length - 20} more`}
              </li>
            ))}
        </ul>
      )}
      {changes.figures.length > 0 && <p>{changes.figures.join(' · ')}</p>}
    </div>
  )
}

/** The evaluation's time, tokens and cost: from the telemetry when it has any, from the summary otherwise. */
function CostAndTime({ doc }: { doc: ResultsDocument }) {
  const t = doc.telemetry?.overall
  const s = doc.summary
  const items: [string, string][] = [['Duration', seconds(doc.duration_s)]]
  if (t) {
    // The wall clock of the evaluation itself, when it differs from the document's duration (a merge, a resumed journal).
    if (Math.abs(t.wall_s - doc.duration_s) >= 0.05) items.push(['Wall time', seconds(t.wall_s)])
    items.push(['Run time (summed over runs)', seconds(t.runs_s)])
    items.push(['Cost', t.cost_usd.total === null ? 'unknown (a call reported no cost)' : usd(t.cost_usd.total)])
    if (t.spent_usd !== null && t.spent_usd !== t.cost_usd.total) items.push(['Spent (less replayed answers)', usd(t.spent_usd)])
    items.push(['Tokens', `${t.tokens.total.toLocaleString('en-US')} (agent ${t.tokens.agent.total.toLocaleString('en-US')}, judge ${t.tokens.judge.total.toLocaleString('en-US')})`])
  } else if (s.tokens.total > 0) {
    items.push(['Tokens', s.tokens.total.toLocaleString('en-US')])
  }
  if (s.total > 0) items.push(['Runs', `${count(s.total, 'run')}: ${s.passed} passed, ${s.failed} failed, ${s.errored} errored${s.cancelled ? `, ${s.cancelled} cancelled` : ''}${s.skipped ? `, ${s.skipped} skipped` : ''}`])
  if (s.llm_calls > 0 || s.tool_calls > 0) items.push(['Calls', `${count(s.llm_calls, 'LLM call')}, ${count(s.tool_calls, 'tool call')}${s.tool_errors ? ` (${s.tool_errors} errors)` : ''}`])
  return (
    <>
      <h3>Cost and time</h3>
      <dl class="figures">
        {items.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </>
  )
}
