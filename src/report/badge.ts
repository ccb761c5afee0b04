import type { ResultsDocument } from '../results/types.js'
import { unreachableReason } from './headline.js'
import { telemetryPassed, toolTestsPassed } from '../aggregate/verdict.js'

/** A shields.io endpoint badge (https://shields.io/badges/endpoint-badge) for the results. */
export interface EndpointBadge {
  schemaVersion: 1
  label: string
  message: string
  color: string
}

/**
 * The pass rate of the behaviour runs, with what else failed; without runs, the tool tests'
 * count, else conformance. Tool tests count as themselves, never into the run pass rate: a
 * deterministic test and a model run are not the same unit.
 */
export function renderBadge(doc: ResultsDocument): EndpointBadge {
  const badge = (message: string, color: string): EndpointBadge => ({ schemaVersion: 1, label: 'MCP evals', message, color })
  if (doc.fatal_error !== null) return badge('error', 'lightgrey')
  const tests = doc.tool_tests && doc.tool_tests.status === 'ran' ? doc.tool_tests : null
  if (doc.cancelled) {
    if (tests && doc.behaviour.status === 'skipped') return badge(`cancelled (${tests.passed}/${tests.total} tool tests passed)`, 'lightgrey')
    return badge(`cancelled (${doc.summary.passed}/${doc.summary.total} passed)`, 'lightgrey')
  }
  if (unreachableReason(doc) !== null) return badge('server unreachable', 'red')
  const conformance = doc.conformance ? (doc.conformance.passed ? '' : ' · conformance failing') : ''
  // Every budget the report and JUnit list: the absolute ones, the trends against the baseline, and runs the spend skipped.
  const budgets = telemetryPassed(doc) ? '' : ' · over budget'
  const toolTests = tests && !toolTestsPassed(tests) ? ` · tool tests ${tests.passed}/${tests.total}` : ''
  if (doc.behaviour.status === 'skipped' || (tests && doc.summary.total === 0)) {
    if (tests) return badge(`tool tests ${tests.passed}/${tests.total}${conformance}${budgets}`, doc.passed ? 'brightgreen' : 'red')
    return doc.conformance ? badge(`conformance ${doc.conformance.passed ? 'passing' : 'failing'}`, doc.conformance.passed ? 'brightgreen' : 'red') : badge('skipped', 'lightgrey')
  }
  const { passed, total, pass_rate } = doc.summary
  if (pass_rate === null) return badge('no runs', 'lightgrey')
  const color = doc.passed ? 'brightgreen' : toolTests || budgets ? 'red' : pass_rate >= 0.8 ? 'yellow' : pass_rate >= 0.5 ? 'orange' : 'red'
  return badge(`${Math.round(pass_rate * 100)}% (${passed}/${total})${toolTests}${conformance}${budgets}`, color)
}
