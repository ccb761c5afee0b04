import { problemAgainst } from './record-shapes.js'

const str = { type: 'string' }
const num = { type: 'number' }
const numOrNull = { type: ['number', 'null'] }
const strOrNull = { type: ['string', 'null'] }
const object = (required: Record<string, unknown>, nullable = false) => ({ type: nullable ? ['object', 'null'] : 'object', required: Object.keys(required), properties: required })
const list = (items: unknown, nullable = false) => ({ type: nullable ? ['array', 'null'] : 'array', items })
const p95 = object({ p95: numOrNull })
const cells = list(object({ key: str, rate: numOrNull }))

/**
 * What the gate (aggregate/gate.ts), the changes against the baseline (aggregate/changes.ts) and
 * the trend budgets (telemetry/budgets.ts) read of a baseline, once upgraded to this version:
 * each of those fields with its type; everything else of the document is not looked at. A
 * baseline that lacks one, or holds one of another type, is no baseline (a warning naming the
 * field), not a crash at the end of the evaluation.
 */
const BASELINE_SCHEMA = object({
  started_at: str,
  groups: list(object({ case_id: str, model: str, prompt_name: str, success: { type: 'boolean' } })),
  summary: object({
    total: num,
    pass_rate: numOrNull,
    by_model: list(object({ model: str, pass_rate: numOrNull })),
    tokens: object({ agent: object({}), judge: object({}) }),
    resilience: object({ recovery_rate: numOrNull, attack_resistance: numOrNull, by_model: list(object({ model: str, faults: cells, attacks: cells })) }, true)
  }),
  metrics: object({ overall: { type: 'object', additionalProperties: numOrNull }, by_model: { type: 'object', additionalProperties: { type: 'object', additionalProperties: numOrNull } } }, true),
  runs: list(
    object({
      case_id: str,
      model: str,
      prompt_name: str,
      status: str,
      duration_s: num,
      final_output: strOrNull,
      tool_calls: list(object({ name: str, args: { type: 'object' } })),
      metrics: list(object({ score: numOrNull }))
    })
  ),
  conformance: {
    type: ['object', 'null'],
    required: ['checks'],
    properties: {
      checks: list(object({ id: str, status: str, message: str })),
      tools: list(object({ name: str, description_sha: str, input_schema_sha: str, output_schema_sha: strOrNull }), true)
    }
  },
  telemetry: object(
    {
      overall: object({ cost_usd: object({ total: numOrNull }) }),
      tools: list(object({ name: str, latency_ms: p95 })),
      models: list(object({ model: str, runs: num, run_s: p95, tokens_per_run: object({ total: num }), cost_usd: object({ per_run: numOrNull }) }))
    },
    true
  )
})

/**
 * The first field of `document` (an upgraded baseline) the gate would read and cannot, in words
 * ("metrics.by_model is missing", "runs[3].final_output is a number, not string or null"); null
 * when the gate can read all it needs.
 */
export function baselineProblem(document: unknown): string | null {
  return problemAgainst('baseline', () => BASELINE_SCHEMA, document, '')
}
