import { LEGAL_FUNCTION_NAME, legalFunctionName, MAX_FUNCTION_NAME as MAX } from '../agent/exposure.js'

/**
 * The shadow_tool decoy's name: near-identical to the real tool's (name squatting, MCPSecBench's
 * "Tool Shadowing Attack" and "Package Name Squatting"), a legal function name for OpenAI-style
 * APIs (`LEGAL_FUNCTION_NAME`, the rule src/agent/exposure.ts applies), and taken by nothing.
 *
 * Rule, first candidate that is free wins:
 *   1. the real name (made legal as exposure.ts does) with its separators swapped: every `_`
 *      becomes `-` (get_calendar_event → get-calendar-event), or, in a name without `_`, every
 *      `-` becomes `_` (get-item → get_item);
 *   2. `<name>_v2`, `<name>_v3`, … (the name cut to fit 64 characters): search → search_v2.
 * "Free" compares case-insensitively against every listed tool and every other function name
 * offered (resources, prompts, other decoys), so a decoy never shadows a real tool by accident
 * and a call of it can only be a call of the decoy.
 */

export function decoyName(real: string, taken: readonly string[]): string {
  const base = legalFunctionName(real)
  const used = new Set(taken.flatMap((t) => [t.toLowerCase(), legalFunctionName(t).toLowerCase()]))
  used.add(base.toLowerCase())
  const free = (candidate: string) => LEGAL_FUNCTION_NAME.test(candidate) && !used.has(candidate.toLowerCase())
  const swapped = base.includes('_') ? base.replaceAll('_', '-') : base.replaceAll('-', '_')
  if (swapped !== base && free(swapped)) return swapped
  for (let n = 2; ; n++) {
    const suffix = `_v${n}`
    const candidate = `${base.slice(0, MAX - suffix.length)}${suffix}`
    if (free(candidate)) return candidate
  }
}
