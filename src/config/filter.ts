import type { EvalCase, Suite, ToolTest } from './types.js'

/** The cases a filter keeps: those whose id contains it (case-sensitive, as eval-action); all without one. */
export function selectCases(suite: Suite, filter: string | undefined): EvalCase[] {
  return filter ? suite.cases.filter((c) => c.id.includes(filter)) : suite.cases
}

/**
 * The tool tests a filter selects: a case-sensitive substring of the id, as for cases. An evals/v1
 * suite's checks always run (its filter selects scenarios only, as in @mcp-use/evals).
 */
export function selectToolTests(suite: Suite, filter: string | undefined): ToolTest[] {
  return filter && !suite.evals_v1 ? suite.tool_tests.filter((t) => t.id.includes(filter)) : suite.tool_tests
}
