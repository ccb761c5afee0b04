import type { BudgetCheck, Distribution, ModelTelemetry, TelemetrySection, ToolTelemetry } from '../../../results/telemetry.js'
import type { ResultsDocument } from '../../../results/types.js'
import { budgetChecks, skippedRuns } from '../../../aggregate/verdict.js'
import { skipWords, verdictWords } from '../../telemetry-budgets.js'
import { BarChart } from './charts.js'
import { count, ms, percent, seconds, Section, Status, usd } from './common.js'
import { useReport } from './context.js'
import { Facts } from './section-parts.js'

/** A cost, or "unknown" (never $0) when the provider reported none and `pricing:` has no entry. */
const cost = (v: number | null | undefined) => (v === null || v === undefined ? 'unknown' : usd(v))
const tokens = (n: number | null | undefined) => (n === null || n === undefined ? '—' : Math.round(n).toLocaleString('en-US'))
const p50p95 = (d: Distribution, format: (n: number | null) => string) => (d.samples === 0 ? '—' : `${format(d.p50)} / ${format(d.p95)}`)
const bytes = (n: number | null) => (n === null ? '—' : n < 1024 ? `${Math.round(n)} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / (1024 * 1024)).toFixed(1)} MiB`)
/** Share of a whole, " (27%)"; nothing when the whole is zero. */
const shareOf = (part: number, whole: number) => (whole > 0 ? ` (${percent(part / whole)})` : '')

/** "every budget held (5)", "2 of 5 budgets exceeded · 3 runs skipped", or null: the report's words without their mark. */
function budgetsVerdict(doc: ResultsDocument): { passed: boolean; words: string } | null {
  const words = verdictWords(doc)
  return words === null ? null : { passed: words.startsWith('✓'), words: words.replace(/^[✓✗]\s*/, '') }
}

/** A plain figure: up to two decimals. */
const plain = (n: number) => String(Math.round(n * 100) / 100)

/**
 * A budget's figure in its unit: a cost, a latency, a run time, tokens, or a plain number. A trend
 * budget's limit is a ratio ("+50%") and its figures are the subject's own: a tool's p95 latency,
 * a model's p95 run time, a model's cost per run (src/telemetry/budgets.ts checkTrends).
 */
function budgetFigure(check: BudgetCheck, value: number | null | undefined, tools: ReadonlySet<string>, isLimit: boolean): string {
  if (value === null || value === undefined) return 'not measured'
  const b = check.budget
  if (b === 'max_p95_increase' || b === 'max_cost_increase') {
    if (isLimit) return `+${percent(value)}`
    if (b === 'max_cost_increase') return usd(value)
    return check.subject !== null && tools.has(check.subject) ? ms(value) : seconds(value)
  }
  if (b === 'max_cost_usd' || b === 'max_cost_per_run_usd') return usd(value)
  if (b === 'max_p95_tool_ms' || b === 'tools.max_p95_ms') return ms(value)
  if (b === 'max_p95_run_s') return seconds(value)
  if (b === 'max_tokens_per_run' || b === 'max_tokens_per_success_p95') return tokens(value)
  return plain(value)
}

function BudgetsTable({ checks, caption }: { checks: BudgetCheck[]; caption: string }) {
  const { doc } = useReport()
  const tools = new Set((doc.telemetry?.tools ?? []).map((t) => t.name))
  return (
    <table class="budgets-table">
      <caption class="muted">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Result</th>
          <th scope="col">Budget</th>
          <th scope="col">Subject</th>
          <th scope="col">Limit</th>
          <th scope="col">Measured</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {checks.map((check, i) => (
          <tr key={i} class={check.passed ? 'budget-held' : 'budget-exceeded'}>
            <td>
              <Status status={check.passed ? 'passed' : 'failed'} label={check.passed ? 'held' : 'exceeded'} />
            </td>
            <th scope="row">
              <code>{check.budget}</code>
            </th>
            <td>{check.subject === null ? 'the whole evaluation' : <code>{check.subject}</code>}</td>
            <td class="num">{budgetFigure(check, check.limit, tools, true)}</td>
            <td class="num">
              {budgetFigure(check, check.actual, tools, false)}
              {check.baseline !== undefined && check.baseline !== null ? ` (baseline ${budgetFigure(check, check.baseline, tools, false)})` : ''}
            </td>
            <td>{check.reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function Budgets() {
  const { doc } = useReport()
  const { absolute, trends } = budgetChecks(doc)
  const skipped = skippedRuns(doc)
  return (
    <div class="subsection" id="telemetry-budgets">
      <h3>Budgets</h3>
      {absolute.length === 0 && trends.length === 0 && <p class="muted">No budget is set. budgets: in the YAML (or the max_* inputs) turns latency, tokens and cost into gates.</p>}
      {skipped.length > 0 && (
        <p>
          <Status status="failed" label={`${count(skipped.length, 'run')} skipped`} /> {skipWords(skipped[0].skipped?.detail, skipped.length > 1)}. Not run:{' '}
          {skipped.map((r) => `${r.case_id} · ${r.model} · ${r.prompt_name}`).join(', ')}.
        </p>
      )}
      {absolute.length > 0 && <BudgetsTable checks={absolute} caption="Every budget checked against what was measured." />}
      {trends.length > 0 && <BudgetsTable checks={trends} caption="Against the baseline." />}
    </div>
  )
}

function Overall({ section, doc }: { section: TelemetrySection; doc: ResultsDocument }) {
  const o = section.overall
  const started = section.models.reduce((n, m) => n + m.runs, 0)
  const cache = o.cache
  const sources = section.cost_sources
  const calls = sources.provider + sources.pricing + sources.unknown
  return (
    <div class="subsection">
      <h3>Overall</h3>
      <Facts
        items={[
          ['Wall clock', `${seconds(o.wall_s)} for the whole evaluation`],
          ['Runs', started > 0 ? count(started, 'run') : null],
          ['Agent loop (summed)', seconds(o.runs_s)],
          ['The model (summed)', seconds(o.llm_s)],
          ['The tools (summed)', seconds(o.tool_s)],
          ['The harness (summed)', seconds(o.harness_s)],
          ['Server start-up (summed)', seconds(o.server_start_s)],
          ['Judge (summed)', seconds(o.judge_s)],
          ['Tokens', `${tokens(o.tokens.total)} (agent ${tokens(o.tokens.agent.total)}, judge ${tokens(o.tokens.judge.total)})`],
          ['Cost', `${cost(o.cost_usd.total)} (agent ${cost(o.cost_usd.agent)}, judge ${cost(o.cost_usd.judge)})`],
          ['Spent', cache && cache.hits > 0 ? `${cost(o.spent_usd)} of ${cost(o.cost_usd.total)} nominal` : cost(o.spent_usd)],
          [
            'Cache',
            cache
              ? cache.hits > 0
                ? `${count(cache.hits, 'replayed answer')} saved ${count(cache.saved_tokens, 'token')}${cache.saved_cost_usd === null ? '' : ` (${cost(cache.saved_cost_usd)})`}`
                : 'no answer was replayed from the cache'
              : null
          ],
          ['Where the costs come from', calls > 0 ? `of ${count(calls, 'LLM call')}, ${sources.provider} reported by the provider, ${sources.pricing} from pricing:, ${sources.unknown} unknown` : null]
        ]}
      />
      {sources.unknown_models.length > 0 && (
        <p>
          <Status status="warning" label="cost unknown" /> for {sources.unknown_models.join(', ')}: the provider reported no cost and pricing: has no entry, so every total that includes{' '}
          {sources.unknown_models.length === 1 ? 'it' : 'them'} is unknown (not $0).
        </p>
      )}
      {started > 0 && (
        <>
          <h4>Where the time went</h4>
          <p>
            Agent loop {seconds(o.runs_s)} summed over {count(started, 'run')}: the model {seconds(o.llm_s)}
            {shareOf(o.llm_s, o.runs_s)}, the tools {seconds(o.tool_s)}
            {shareOf(o.tool_s, o.runs_s)}, the harness (the rest) {seconds(o.harness_s)}
            {shareOf(o.harness_s, o.runs_s)}. Server start-up {seconds(o.server_start_s)}, judge {seconds(o.judge_s)}.
          </p>
          <p class="muted">Sums over runs overlap when runs are concurrent{(doc.config?.concurrency ?? 1) > 1 ? ` (concurrency ${doc.config?.concurrency})` : ''}: they can exceed the wall clock.</p>
        </>
      )}
    </div>
  )
}

function ModelsTable({ models, withPrompt, caption }: { models: ModelTelemetry[]; withPrompt: boolean; caption: string }) {
  return (
    <table class="models-table">
      <caption class="muted">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Model</th>
          {withPrompt && <th scope="col">Prompt</th>}
          <th scope="col">Runs</th>
          <th scope="col">Run p50 / p95</th>
          <th scope="col">LLM call p50 / p95</th>
          <th scope="col">Tool calls per run</th>
          <th scope="col">Tokens per run p50 / p95</th>
          <th scope="col">Agent cost per run</th>
          <th scope="col">Agent cost</th>
          <th scope="col">Judge tokens</th>
          <th scope="col">Judge cost</th>
        </tr>
      </thead>
      <tbody>
        {models.map((m) => (
          <tr key={`${m.model} ${m.prompt_name ?? ''}`}>
            <th scope="row">
              <code>{m.model}</code>
            </th>
            {withPrompt && <td>{m.prompt_name}</td>}
            <td class="num">{m.runs}</td>
            <td class="num">{p50p95(m.run_s, seconds)}</td>
            <td class="num">{p50p95(m.turn_ms, ms)}</td>
            <td class="num">{m.tool_calls_per_run === null ? '—' : String(Math.round(m.tool_calls_per_run * 10) / 10)}</td>
            <td class="num">{p50p95(m.tokens_per_run, tokens)}</td>
            <td class="num">{m.runs > 0 ? cost(m.cost_usd.per_run) : '—'}</td>
            <td class="num">{m.runs > 0 ? cost(m.cost_usd.total) : '—'}</td>
            <td class="num">{tokens(m.judge.tokens.total)}</td>
            <td class="num">{m.judge.tokens.total === 0 ? '—' : cost(m.judge.cost_usd)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function ToolsTable({ tools }: { tools: ToolTelemetry[] }) {
  const faults = tools.some((t) => t.faulted > 0)
  return (
    <table class="tools-table">
      <caption class="muted">
        Latency and result size: nearest-rank percentiles over each tool's calls that reached the server, behaviour runs and tool tests
        {faults ? '; faulted: calls a Layer 2 fault replaced or delayed, counted apart and measured nowhere' : ''}.
      </caption>
      <thead>
        <tr>
          <th scope="col">Tool</th>
          <th scope="col">Calls</th>
          <th scope="col">Errors</th>
          {faults && <th scope="col">Faulted</th>}
          <th scope="col">p50</th>
          <th scope="col">p95</th>
          <th scope="col">max</th>
          <th scope="col">Result p50</th>
          <th scope="col">Result p95</th>
        </tr>
      </thead>
      <tbody>
        {tools.map((t) => (
          <tr key={t.name}>
            <th scope="row">
              <code>{t.name}</code>
            </th>
            <td class="num">{t.calls.toLocaleString('en-US')}</td>
            <td class="num">{t.errors.toLocaleString('en-US')}</td>
            {faults && <td class="num">{t.faulted.toLocaleString('en-US')}</td>}
            <td class="num">{ms(t.latency_ms.p50)}</td>
            <td class="num">{ms(t.latency_ms.p95)}</td>
            <td class="num">{ms(t.latency_ms.max)}</td>
            <td class="num">{bytes(t.result_bytes.p50)}</td>
            <td class="num">{bytes(t.result_bytes.p95)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/**
 * Telemetry and budgets: the whole evaluation's time, tokens and cost; the models table beside a
 * chart of each model's cost; each tool's latency as a chart (p50 and p95) beside its table; where
 * the time went; every budget with ✓/✗ and its reason, the trends apart, and the runs the spend
 * left unstarted.
 */
export function Telemetry() {
  const { doc } = useReport()
  const section = doc.telemetry
  if (!section) return null
  const verdict = budgetsVerdict(doc)
  const models = section.models.filter((m) => m.prompt_name === null)
  const prompts = new Set(section.model_prompts.map((m) => m.prompt_name))
  return (
    <Section id="telemetry" title="Telemetry and budgets">
      {verdict && (
        <p class="section-verdict">
          <Status status={verdict.passed ? 'passed' : 'failed'} label={verdict.words} />
        </p>
      )}
      <Overall section={section} doc={doc} />
      {models.length > 0 && (
        <div class="subsection" id="telemetry-models">
          <h3>Models</h3>
          <div class="chart-and-table">
            <BarChart
              title="Cost per model (USD), the agent's and the judge's"
              series={['agent', 'judge']}
              missing="unknown"
              format={usd}
              rows={models.map((m) => ({ label: m.model, value: m.runs > 0 ? m.cost_usd.total : null, second: m.judge.tokens.total === 0 ? 0 : m.judge.cost_usd }))}
            />
            <ModelsTable models={models} withPrompt={false} caption="Per model: run and LLM call times, tool calls, tokens and cost (the judge's counted apart)." />
          </div>
          {prompts.size > 1 && (
            <>
              <h4>Per model and system prompt</h4>
              <ModelsTable models={section.model_prompts} withPrompt={true} caption="Per model and system prompt." />
            </>
          )}
        </div>
      )}
      {section.tools.length > 0 && (
        <div class="subsection" id="telemetry-tools">
          <h3>Tools</h3>
          <div class="chart-and-table">
            <BarChart title="Latency per tool (ms), p50 and p95" series={['p50', 'p95']} format={ms} rows={section.tools.map((t) => ({ label: t.name, value: t.latency_ms.p50, second: t.latency_ms.p95 }))} />
            <ToolsTable tools={section.tools} />
          </div>
        </div>
      )}
      <Budgets />
    </Section>
  )
}
