import type { AppRender } from '../results/apps.js'
import { firstLine } from '../util/text.js'

/**
 * Why a render fails its tool test or run, in a few words (plain text: the caller escapes it):
 * the host's error, else the first failed finding, action or assertion; null when it did not fail.
 * `app-no-errors: the view threw: TypeError: x is undefined`, `app click #go: no element matched`.
 */
export function appFailureWords(render: AppRender): string | null {
  if (render.status === 'error') return `app: ${firstLine(render.reason ?? 'the render failed')}`
  const finding = render.findings.find((f) => f.status === 'failed')
  if (finding) return `${finding.id}: ${firstLine(finding.message)}`
  const action = render.actions.find((a) => !a.passed)
  if (action) return `app ${action.action} ${action.selector}: ${firstLine(action.error ?? 'failed')}`
  const assertion = render.assertions.find((a) => !a.passed)
  if (assertion) return `app.${assertion.check}${assertion.target ? ` ${assertion.target}` : ''}: ${firstLine(assertion.reason)}`
  return null
}
