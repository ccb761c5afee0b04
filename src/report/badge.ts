import type { ResultsDocument } from '../results/types.js'

/** A shields.io endpoint badge (https://shields.io/badges/endpoint-badge) for the results. */
export interface EndpointBadge {
  schemaVersion: 1
  label: string
  message: string
  color: string
}

export function renderBadge(doc: ResultsDocument): EndpointBadge {
  const badge = (message: string, color: string): EndpointBadge => ({ schemaVersion: 1, label: 'MCP evals', message, color })
  if (doc.fatal_error !== null) return badge('error', 'lightgrey')
  if (doc.cancelled) return badge(`cancelled (${doc.summary.passed}/${doc.summary.total} passed)`, 'lightgrey')
  const conformance = doc.conformance ? (doc.conformance.passed ? '' : ' · conformance failing') : ''
  if (doc.behaviour.status === 'skipped') {
    return doc.conformance ? badge(`conformance ${doc.conformance.passed ? 'passing' : 'failing'}`, doc.conformance.passed ? 'brightgreen' : 'red') : badge('skipped', 'lightgrey')
  }
  const { passed, total, pass_rate } = doc.summary
  if (pass_rate === null) return badge('no runs', 'lightgrey')
  const color = doc.passed ? 'brightgreen' : pass_rate >= 0.8 ? 'yellow' : pass_rate >= 0.5 ? 'orange' : 'red'
  return badge(`${Math.round(pass_rate * 100)}% (${passed}/${total})${conformance}`, color)
}
