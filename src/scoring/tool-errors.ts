import { compileMatcherPattern } from './tool-assertions.js'

/**
 * The first of `tool_error_patterns` found in a result the server did not mark isError: a failure
 * reported in plain text ("Error searching libraries: …"), which the protocol cannot tell apart.
 * Undefined when none matches.
 */
export function errorPatternOf(result: string, patterns: readonly string[]): string | undefined {
  return patterns.find((pattern) => compileMatcherPattern(pattern).test(result))
}

/** Whether a call counts as a tool error in the metrics: the server said isError, or a tool_error_patterns entry matched. */
export function isToolError(call: { is_error: boolean; error_pattern?: string }): boolean {
  return call.is_error || call.error_pattern !== undefined
}
