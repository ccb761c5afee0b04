import type { ResultsDocument, TelemetrySection } from '../results/types.js'
import { count, usd } from '../util/words.js'
import { codeSpan } from './escape.js'
import { describeCache } from './progress.js'
import { cost } from './telemetry-figures.js'

/** Tokens, LLM and tool calls, the judge and the response cache, on one line. */
export function usageLine(doc: ResultsDocument): string {
  const { summary } = doc
  return [
    `**Tokens:** ${summary.tokens.agent.total_tokens.toLocaleString('en-US')} agent + ${summary.tokens.judge.total_tokens.toLocaleString('en-US')} judge${costNote(summary.tokens.agent.cost_usd, summary.tokens.judge.cost_usd, doc.telemetry ?? null)}`,
    `**LLM calls:** ${summary.llm_calls}`,
    `**Tool calls:** ${summary.tool_calls} (${count(summary.tool_errors, 'error')}, ${summary.schema_invalid_calls} outside the input schema)`,
    `**Judge:** ${codeSpan(doc.config?.judge_model ?? '')}`,
    ...(summary.cache && summary.cache.mode !== 'off'
      ? [
          `**Cache (${summary.cache.mode}):** ${describeCache(summary.cache)}`
        ]
      : [])
  ].join(' · ')
}

/** The cost after the tokens: Layer 3's total (the provider's figures, else `pricing:`), "cost unknown" when any call's is; a document without telemetry says what the provider reported. */
function costNote(agent: number | undefined, judge: number | undefined, telemetry: TelemetrySection | null): string {
  if (telemetry) return telemetry.overall.tokens.total === 0 ? '' : ` (${telemetry.overall.cost_usd.total === null ? 'cost unknown' : cost(telemetry.overall.cost_usd.total)})`
  if (agent === undefined && judge === undefined) return ''
  return ` (${usd((agent ?? 0) + (judge ?? 0))} as the provider reported)`
}
