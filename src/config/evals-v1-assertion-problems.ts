import type { EvalsV1Assertion } from './types.js'

// Stand-in for area B's module (contracts.md item 1) until hz-b is merged: the same signature, no checks.
export function assertionProblems(rule: EvalsV1Assertion, at: (string | number)[]): { message: string; path: (string | number)[] }[] {
  void rule
  void at
  return []
}
