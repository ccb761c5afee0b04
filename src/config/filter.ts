import type { EvalCase, Suite, ToolTest } from './types.js'

/** The cases a filter keeps: those whose id contains it (case-sensitive, as eval-action); all without one. */
export function selectCases(suite: Suite, filter: string | undefined): EvalCase[] {
  return filter ? suite.cases.filter((c) => c.id.includes(filter)) : suite.cases
}

/** The tool tests a filter selects: a case-sensitive substring of the id, as for cases. */
export function selectToolTests(suite: Suite, filter: string | undefined): ToolTest[] {
  return filter ? suite.tool_tests.filter((t) => t.id.includes(filter)) : suite.tool_tests
}
