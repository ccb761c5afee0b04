import { ConfigError } from './errors.js'
import type { RawOption } from './raw-option.js'
import { NO_BUDGETS, type Budgets, type Pricing } from './types.js'

/** The budgets that are one number each, as the YAML, the inputs and the results name them. */
export type BudgetKey = Exclude<keyof Budgets, 'tools'>

/** What a budget's number is: an amount (> 0), a whole count (≥ 1), or a ratio against the baseline (≥ 0). */
type BudgetValueKind = 'amount' | 'count' | 'ratio'

/** Every one-number budget, in the order the inputs, flags and README list them. */
const BUDGET_KINDS: Readonly<Record<BudgetKey, BudgetValueKind>> = {
  max_cost_usd: 'amount',
  max_cost_per_run_usd: 'amount',
  max_tokens_per_run: 'count',
  max_p95_tool_ms: 'amount',
  max_p95_run_s: 'amount',
  max_p95_increase: 'ratio',
  max_cost_increase: 'ratio',
  max_tool_error_rate: 'ratio',
  max_agent_steps_p95: 'count',
  max_tokens_per_success_p95: 'count'
}

export const BUDGET_KEYS = Object.keys(BUDGET_KINDS) as BudgetKey[]

/** The `budgets:` key as the YAML holds it (the JSON Schema has checked its shape). */
export type RawBudgets = Partial<Record<BudgetKey, number>> & { tools?: Record<string, { max_p95_ms: number }> }

/** The YAML's `budgets:`, with every key it leaves unset null. */
export function budgetsOf(raw: RawBudgets | undefined): Budgets {
  const budgets: Budgets = { ...NO_BUDGETS, tools: {} }
  for (const key of BUDGET_KEYS) budgets[key] = raw?.[key] ?? null
  for (const [tool, { max_p95_ms }] of Object.entries(raw?.tools ?? {})) budgets.tools[tool] = { max_p95_ms }
  return budgets
}

/** The YAML's `pricing:` (already valid against the JSON Schema), copied key by key. */
export function pricingOf(raw: Pricing | undefined): Pricing {
  return Object.fromEntries(Object.entries(raw ?? {}).map(([model, { input_per_mtok, output_per_mtok }]) => [model, { input_per_mtok, output_per_mtok }]))
}

/**
 * The budgets given as inputs or flags, only the keys given (an empty value is not given).
 * Throws a ConfigError naming the input or flag for a value that is not a number of its kind.
 */
export function budgetsFromOptions(raw: Partial<Record<BudgetKey, RawOption>> | undefined): Partial<Record<BudgetKey, number>> {
  const given: Partial<Record<BudgetKey, number>> = {}
  for (const key of BUDGET_KEYS) {
    const option = raw?.[key]
    const value = option ? parseBudgetValue(option, BUDGET_KINDS[key]) : null
    if (value !== null) given[key] = value
  }
  return given
}

/** One budget's text as a number of its kind; null when empty. */
function parseBudgetValue(o: RawOption, kind: BudgetValueKind): number | null {
  const text = (o.value ?? '').trim()
  if (text === '') return null
  const n = /^(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : NaN
  if (kind === 'count') {
    if (!/^\d+$/.test(text) || n < 1) throw new ConfigError(`must be a whole number of 1 or more, got '${text}'`, { input: o.name })
  } else if (kind === 'ratio') {
    if (!Number.isFinite(n)) throw new ConfigError(`must be a ratio of 0 or more (0.25 allows a rise of 25 %), got '${text}'`, { input: o.name })
  } else if (!Number.isFinite(n) || n <= 0) {
    throw new ConfigError(`must be a number greater than 0, got '${text}'`, { input: o.name })
  }
  return n
}

/** The budgets in force: the YAML's `budgets:` wins per key; the inputs (or flags) fill the keys it leaves unset. */
export function mergeBudgets(fromYaml: Budgets, fromOptions: Partial<Record<BudgetKey, number | null>>): Budgets {
  const merged: Budgets = { ...fromYaml, tools: { ...fromYaml.tools } }
  for (const key of BUDGET_KEYS) merged[key] = fromYaml[key] ?? fromOptions[key] ?? null
  return merged
}
