import { significant } from '../util/text.js'
import type { Budgets } from '../config/types.js'
import type { BudgetCheck, ModelTelemetry, TelemetrySection, ToolTelemetry } from '../results/types.js'
import type { EvalsV1Figures } from '../aggregate/evals-v1-metrics.js'
import { milliseconds, percent, wholeNumber } from '../util/words.js'

/**
 * The floors of the trend budgets: a rise of at most this much never fails, whatever the ratio.
 * Chosen from the example's own unchanged reruns on a loaded 2-core machine (docs/telemetry.md#trend-budgets):
 * the p95 of 20 tool calls moved by up to 172 ms, of 20 runs by up to 2 s, in 99 of 100 resamplings.
 */
export const TREND_FLOORS = {
  /** A tool's p95 latency, in ms. */
  tool_p95_ms: 200,
  /** A model's p95 run time, in seconds. */
  run_p95_s: 2,
  /** A model's mean cost per run, in USD: counted, not timed, so only the answers' length moves it. */
  cost_per_run_usd: 0.0001
} as const

/**
 * The fewest samples on each side for a p95 to be compared: by nearest rank, the p95 of fewer
 * than 20 is the largest sample, and one slow call on a busy runner is not a trend.
 */
export const P95_MIN_SAMPLES = 20

/** Float slack at a boundary: a figure equal to its limit passes, whatever the arithmetic says. */
const EPSILON = 1e-9

/**
 * The absolute budgets against what was measured: one check per budget that is set and per
 * subject it applies to, in the order of `Budgets`. A check passes when the figure is at most
 * its limit.
 *
 * - max_cost_usd: what the whole evaluation spent (`overall.spent_usd`: agent and judge, less
 *   replayed answers, as the meter that enforces it while running counts it). It also fails when
 *   runs were skipped, even at the limit exactly: the meter stops at the limit, so every report
 *   (JUnit, the budget list) says the budget is what stopped them.
 * - max_cost_per_run_usd, max_tokens_per_run: per model, its costliest and its largest run.
 * - max_p95_tool_ms: each tool without its own `tools.<name>.max_p95_ms`, which is checked instead.
 * - max_p95_run_s: per model.
 * - max_tool_error_rate, max_agent_steps_p95, max_tokens_per_success_p95 (evals/v1's
 *   `metrics.gates`, also keys of eval_cases' `budgets:`): the whole evaluation's behaviour runs,
 *   figured as @mcp-use/evals does (aggregate/evals-v1-metrics.ts), so each fails exactly when
 *   its gate fails there. No run measured (or none passed, for tokens per success) passes, as
 *   its figure of 0 does there.
 *
 * An unknown cost fails its check and says which models need a `pricing:` entry. A figure that
 * was not measured (a model none of whose runs started, a tool whose calls were all faulted, a
 * tool named under `tools` that was never called) passes with `actual` null and a reason that
 * says it was not checked: nothing measured cannot exceed a budget, and the report shows it.
 */
export function checkBudgets(section: TelemetrySection, budgets: Budgets, figures?: EvalsV1Figures): BudgetCheck[] {
  const checks: BudgetCheck[] = []
  const unknown = section.cost_sources.unknown_models
  if (budgets.max_cost_usd !== null) {
    const limit = budgets.max_cost_usd
    const spent = section.overall.spent_usd
    const skipped = section.skipped_runs
    checks.push(
      spent === null
        ? unknownCost('max_cost_usd', null, limit, `the evaluation's cost is unknown`, unknown)
        : skipped > 0 && spent <= limit + EPSILON
          ? // The meter stops new runs once the spend reaches the limit (≥), this check allows up to it (≤):
            // at the boundary the budget still left runs unstarted, and that fails it.
            {
              budget: 'max_cost_usd',
              subject: null,
              limit,
              actual: spent,
              passed: false,
              reason: `the evaluation spent ${usd(spent)} of max_cost_usd (${usd(limit)}), and ${skipped} ${skipped === 1 ? 'run was' : 'runs were'} skipped once the spend reached it`
            }
          : check('max_cost_usd', null, limit, spent, `the evaluation spent ${usd(spent)}, ${within(spent, limit)} max_cost_usd (${usd(limit)})`)
    )
  }
  if (budgets.max_cost_per_run_usd !== null) {
    const limit = budgets.max_cost_per_run_usd
    for (const model of section.models) {
      const costliest = model.cost_usd.max_per_run
      checks.push(
        model.runs === 0
          ? notMeasured('max_cost_per_run_usd', model.model, limit, `model '${model.model}': no run started; max_cost_per_run_usd (${usd(limit)}) was not checked`)
          : costliest === null
            ? unknownCost('max_cost_per_run_usd', model.model, limit, `model '${model.model}': the cost per run is unknown`, [model.model])
            : check('max_cost_per_run_usd', model.model, limit, costliest, `model '${model.model}': the costliest run cost ${usd(costliest)}, ${within(costliest, limit)} max_cost_per_run_usd (${usd(limit)})`)
      )
    }
  }
  if (budgets.max_tokens_per_run !== null) {
    const limit = budgets.max_tokens_per_run
    for (const model of section.models) {
      const largest = model.tokens_per_run.max
      checks.push(
        largest === null
          ? notMeasured('max_tokens_per_run', model.model, limit, `model '${model.model}': no run started; max_tokens_per_run (${wholeNumber(limit)}) was not checked`)
          : check('max_tokens_per_run', model.model, limit, largest, `model '${model.model}': the largest run used ${wholeNumber(largest)} tokens, ${within(largest, limit)} max_tokens_per_run (${wholeNumber(limit)})`)
      )
    }
  }
  if (budgets.max_p95_tool_ms !== null) {
    const limit = budgets.max_p95_tool_ms
    for (const tool of section.tools.filter((t) => !Object.hasOwn(budgets.tools, t.name))) checks.push(toolCheck(tool, limit, 'max_p95_tool_ms', 'max_p95_tool_ms'))
  }
  for (const [name, { max_p95_ms: limit }] of Object.entries(budgets.tools)) {
    const tool = section.tools.find((t) => t.name === name)
    checks.push(
      tool
        ? toolCheck(tool, limit, 'tools.max_p95_ms', `its max_p95_ms`)
        : notMeasured('tools.max_p95_ms', name, limit, `tool '${name}' was never called; its max_p95_ms (${milliseconds(limit)}) was not checked`)
    )
  }
  if (budgets.max_p95_run_s !== null) {
    const limit = budgets.max_p95_run_s
    for (const model of section.models) {
      const p95 = model.run_s.p95
      checks.push(
        p95 === null
          ? notMeasured('max_p95_run_s', model.model, limit, `model '${model.model}': no run started; max_p95_run_s (${secs(limit)}) was not checked`)
          : check('max_p95_run_s', model.model, limit, p95, `model '${model.model}': p95 run time ${secs(p95)} is ${within(p95, limit)} max_p95_run_s (${secs(limit)})`)
      )
    }
  }
  if (figures) checks.push(...evalsV1Checks(figures, budgets))
  return checks
}

/** The evals/v1 gates as budgets: the whole evaluation's figure against each limit set. */
function evalsV1Checks(figures: EvalsV1Figures, budgets: Budgets): BudgetCheck[] {
  const checks: BudgetCheck[] = []
  const runs = `${figures.runs} ${figures.runs === 1 ? 'behaviour run' : 'behaviour runs'}`
  const rate = budgets.max_tool_error_rate ?? null
  if (rate !== null) {
    const actual = figures.toolErrorRate
    checks.push(
      figures.runs === 0
        ? notMeasured('max_tool_error_rate', null, rate, `no behaviour run was measured; max_tool_error_rate (${significant(rate)}) was not checked`)
        : check('max_tool_error_rate', null, rate, actual, `the tool error rate (failed expectations, judges and run errors per run) is ${significant(actual)} (${wholeNumber(figures.errors)} ${figures.errors === 1 ? 'error' : 'errors'} in ${runs}), ${within(actual, rate)} max_tool_error_rate (${significant(rate)})`)
    )
  }
  const steps = budgets.max_agent_steps_p95 ?? null
  if (steps !== null) {
    const actual = figures.agentStepsP95
    checks.push(
      figures.runs === 0
        ? notMeasured('max_agent_steps_p95', null, steps, `no behaviour run was measured; max_agent_steps_p95 (${wholeNumber(steps)}) was not checked`)
        : check('max_agent_steps_p95', null, steps, actual, `the p95 of agent steps (model answers plus tool calls) over ${runs} is ${wholeNumber(actual)}, ${within(actual, steps)} max_agent_steps_p95 (${wholeNumber(steps)})`)
    )
  }
  const tokens = budgets.max_tokens_per_success_p95 ?? null
  if (tokens !== null) {
    const actual = figures.tokensPerSuccessP95
    const passed = `${figures.passed} ${figures.passed === 1 ? 'run' : 'runs'} that passed`
    checks.push(
      figures.passed === 0
        ? notMeasured('max_tokens_per_success_p95', null, tokens, `no behaviour run passed; max_tokens_per_success_p95 (${wholeNumber(tokens)}) was not checked`)
        : check('max_tokens_per_success_p95', null, tokens, actual, `the p95 of tokens (agent and judge) over the ${passed} is ${wholeNumber(actual)}, ${within(actual, tokens)} max_tokens_per_success_p95 (${wholeNumber(tokens)})`)
    )
  }
  return checks
}

/** 0.33333333 → "0.333333": a rate to six significant digits, so a figure just over its limit does not read as equal to it. */

/**
 * What the budgets fail the gate on: each failed check's reason, and when the spend stopped runs
 * from starting, that (in place of the max_cost_usd check's own reason, which says less).
 */
export function budgetReasons(section: TelemetrySection | null): string[] {
  if (!section) return []
  const failed = section.budgets.filter((c) => !c.passed)
  if (section.skipped_runs === 0) return failed.map((c) => c.reason)
  const cap = section.budgets.find((c) => c.budget === 'max_cost_usd')
  const spent = section.overall.spent_usd
  const reached = cap === undefined ? 'the spend reached the budget' : spent === null ? `the spend reached ${usd(cap.limit)} (and the cost of some calls is unknown)` : `the spend reached ${usd(spent)} of ${usd(cap.limit)}`
  const skipped = `max_cost_usd: ${reached}; ${section.skipped_runs} ${section.skipped_runs === 1 ? 'run was' : 'runs were'} skipped`
  return [...failed.filter((c) => c.budget !== 'max_cost_usd').map((c) => c.reason), skipped]
}

/**
 * The trend budgets against a baseline's telemetry, per subject measured on both sides (a tool or
 * model on one side only, or without a figure there, is not compared):
 * - max_p95_increase: each tool's p95 latency and each model's p95 run time may rise by at most
 *   this ratio. A rise past it fails only when it is also over the metric's floor (TREND_FLOORS)
 *   and both p95s rest on at least P95_MIN_SAMPLES samples; the reason says which rule let it pass.
 * - max_cost_increase: each model's mean cost per run may rise by at most this ratio, and fails
 *   only past the cost floor (a mean over every run needs no sample count). When the
 *   cost is unknown on either side the check passes and says it could not be compared: a
 *   baseline written without `pricing:` must not fail every pull request.
 * `actual` is the figure now and `baseline` the figure before; `limit` is the ratio.
 */
export function checkTrends(current: TelemetrySection, baseline: TelemetrySection, budgets: Budgets): BudgetCheck[] {
  const checks: BudgetCheck[] = []
  const rise = budgets.max_p95_increase
  if (rise !== null) {
    for (const tool of current.tools) {
      const then = baseline.tools.find((t) => t.name === tool.name)
      const before = then?.latency_ms.p95 ?? null
      const after = tool.latency_ms.p95
      if (then && before !== null && after !== null) {
        const samples = { before: then.latency_ms.samples, after: tool.latency_ms.samples, noun: 'calls' }
        checks.push(trend('max_p95_increase', tool.name, rise, before, after, { what: `tool '${tool.name}': p95 latency`, unit: milliseconds, floor: TREND_FLOORS.tool_p95_ms, samples }))
      }
    }
    for (const model of current.models) {
      const then = modelIn(baseline, model)
      const before = then?.run_s.p95 ?? null
      const after = model.run_s.p95
      if (then && before !== null && after !== null) {
        const samples = { before: then.run_s.samples, after: model.run_s.samples, noun: 'runs' }
        checks.push(trend('max_p95_increase', model.model, rise, before, after, { what: `model '${model.model}': p95 run time`, unit: secs, floor: TREND_FLOORS.run_p95_s, samples }))
      }
    }
  }
  const costRise = budgets.max_cost_increase
  if (costRise !== null) {
    for (const model of current.models) {
      const then = modelIn(baseline, model)
      if (!then || then.runs === 0 || model.runs === 0) continue
      const before = then.cost_usd.per_run
      const after = model.cost_usd.per_run
      const what = `model '${model.model}': cost per run`
      checks.push(
        before === null || after === null
          ? {
              budget: 'max_cost_increase',
              subject: model.model,
              limit: costRise,
              actual: after,
              baseline: before,
              passed: true,
              reason: `${what} is unknown ${before === null ? (after === null ? 'on both sides' : 'in the baseline') : 'now'}; max_cost_increase (+${percent(costRise)}) was not checked`
            }
          : trend('max_cost_increase', model.model, costRise, before, after, { what, unit: usd, floor: TREND_FLOORS.cost_per_run_usd })
      )
    }
  }
  return checks
}

interface TrendFigure {
  what: string
  unit: (n: number) => string
  /** The rise at or under which the check passes whatever the ratio. */
  floor: number
  /** For a p95: how many samples each side's figure rests on. */
  samples?: { before: number; after: number; noun: string }
}

/**
 * One trend check. Past the ratio it still passes, and says why, when the rise is within the
 * floor or a p95 rests on too few samples; only a rise that clears all three fails.
 */
function trend(budget: BudgetCheck['budget'], subject: string, limit: number, before: number, after: number, figure: TrendFigure): BudgetCheck {
  const ratio = before === 0 ? (after > 0 ? Infinity : 0) : after / before - 1
  const relative = Number.isFinite(ratio) ? `${ratio >= 0 ? '+' : '−'}${percent(Math.abs(ratio))}` : null
  const figures = `${figure.what} ${figure.unit(before)} → ${figure.unit(after)}${relative ? ` (${relative})` : ''}`
  const allowed = `${budget} (+${percent(limit)})`
  const result = (passed: boolean, reason: string): BudgetCheck => ({ budget, subject, limit, actual: after, baseline: before, passed, reason })
  if (ratio <= limit + EPSILON) return result(true, `${figures}, within ${allowed}`)
  const rise = `+${figure.unit(after - before)}`
  if (after - before <= figure.floor + EPSILON) return result(true, `${figures}: ${rise} is under the ${figure.unit(figure.floor)} floor of ${allowed}`)
  const samples = figure.samples
  if (samples && Math.min(samples.before, samples.after) < P95_MIN_SAMPLES) {
    const { before: then, after: now, noun } = samples
    return result(true, `${figures}: too few ${noun} to compare (${then} in the baseline, ${now} now; a p95 of fewer than ${P95_MIN_SAMPLES} is the slowest one), so ${allowed} does not apply`)
  }
  const shown = [relative, samples ? `${rise} over ${samples.before} and ${samples.after} ${samples.noun}` : rise].filter(Boolean).join(', ')
  return result(false, `${figure.what} rose from ${figure.unit(before)} to ${figure.unit(after)} (${shown}), more than ${allowed} and its ${figure.unit(figure.floor)} floor`)
}

const modelIn = (section: TelemetrySection, model: ModelTelemetry) => section.models.find((m) => m.model === model.model)

function toolCheck(tool: ToolTelemetry, limit: number, budget: 'max_p95_tool_ms' | 'tools.max_p95_ms', label: string): BudgetCheck {
  const p95 = tool.latency_ms.p95
  if (p95 === null) return notMeasured(budget, tool.name, limit, `tool '${tool.name}': no call was measured (${tool.faulted} faulted); ${label} (${milliseconds(limit)}) was not checked`)
  return check(budget, tool.name, limit, p95, `tool '${tool.name}': p95 latency ${milliseconds(p95)} is ${within(p95, limit)} ${label} (${milliseconds(limit)})`)
}

function check(budget: BudgetCheck['budget'], subject: string | null, limit: number, actual: number, reason: string): BudgetCheck {
  return { budget, subject, limit, actual, passed: actual <= limit + EPSILON, reason }
}

function notMeasured(budget: BudgetCheck['budget'], subject: string | null, limit: number, reason: string): BudgetCheck {
  return { budget, subject, limit, actual: null, passed: true, reason }
}

function unknownCost(budget: BudgetCheck['budget'], subject: string | null, limit: number, what: string, models: string[]): BudgetCheck {
  const which = models.length ? ` for ${models.join(', ')}` : ''
  return {
    budget,
    subject,
    limit,
    actual: null,
    passed: false,
    reason: `${what} (the provider reported no cost and there is no price${which}): ${budget} (${usd(limit)}) cannot be checked; give ${models.length === 1 ? 'the model its' : 'the models their'} input_per_mtok and output_per_mtok under \`pricing:\` in the YAML`
  }
}

const within = (actual: number, limit: number) => (actual <= limit + EPSILON ? 'within' : 'over')

/** 12.345 → "12.35 s": finer than a report cell's seconds, so a figure just over its limit does not read as equal to it. */
const secs = (n: number): string => `${Math.round(n * 100) / 100} s`

/**
 * Dollars with cents, and four significant digits below a dollar: $0.50, $0.01235, $12.40. Finer
 * than a report cell's `usd` (util/words.ts) for the same reason as `secs`: a spend of $0.00102
 * against a budget of $0.001 must not read "$0.0010 of $0.0010".
 */
export function usd(n: number): string {
  if (n === 0) return '$0.00'
  if (Math.abs(n) >= 1) return `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
  const digits = Math.min(8, Math.max(2, 3 - Math.floor(Math.log10(Math.abs(n)))))
  const text = n.toFixed(digits).replace(/0+$/, '')
  const decimals = text.split('.')[1]?.length ?? 0
  return `$${decimals < 2 ? n.toFixed(2) : text}`
}
