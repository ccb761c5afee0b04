import { appRenderFailed, type AppFinding, type AppRender } from '../../../results/apps.js'
import { LongText, Status } from './common.js'
import { useReport } from './context.js'

/** A finding's status as the tones know it: review is for a reviewer's eye, neither a pass nor a failure. */
const findingTone = (status: AppFinding['status']) => (status === 'review' ? 'warn' : status)

/** The render's verdict: failed (a failed finding, action or assertion, or not rendered), not done (skipped, cancelled), passed. */
function renderVerdict(render: AppRender): { status: string; label: string } {
  if (render.status === 'error') return { status: 'failed', label: `not rendered: ${render.reason ?? 'the host could not render the view'}` }
  if (render.status === 'skipped' || render.status === 'cancelled') return { status: 'skipped', label: `${render.status}${render.reason ? `: ${render.reason}` : ''}` }
  if (appRenderFailed(render)) return { status: 'failed', label: 'failed' }
  if (render.findings.some((f) => f.status === 'review')) return { status: 'warn', label: 'changed, for review' }
  if (render.findings.some((f) => f.status === 'warning')) return { status: 'warn', label: 'warning' }
  return { status: 'passed', label: 'passed' }
}

/**
 * The MCP Apps view a call opened, rendered in the browser: its verdict, its findings (the
 * evidence of those that did not pass), and its screenshot inline when this file carries it.
 * The image's source is only ever a data: URL the report made (view.images), never document text.
 */
export function CallAppRender({ render }: { render: AppRender }) {
  const { view } = useReport()
  const verdict = renderVerdict(render)
  const picture = render.screenshot ? view.images[render.screenshot] : undefined
  return (
    <div class="call-app">
      <p class="label">
        MCP Apps view <code>{render.resource_uri}</code> (render <code>{render.id}</code>): <Status status={verdict.status} label={verdict.label} />
      </p>
      {render.findings.length > 0 && (
        <ul class="app-findings">
          {render.findings.map((f) => (
            <li key={f.id}>
              <Status status={findingTone(f.status)} label={f.status} /> <code>{f.id}</code> — {f.message}
              {f.status !== 'passed' && f.evidence.length > 0 && (
                <details>
                  <summary>Evidence ({f.evidence.length})</summary>
                  <LongText text={f.evidence.join('\n')} label={`evidence of ${f.id}`} />
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
      {render.screenshot === null ? (
        <p class="muted">No screenshot was taken.</p>
      ) : picture && picture.startsWith('data:image/png;base64,') ? (
        <figure class="app-shot">
          <img src={picture} alt={`Screenshot of the view ${render.resource_uri} after call ${render.call_index}`} width={Math.min(render.viewport.width, 480)} />
          <figcaption class="muted">
            <code>{render.screenshot}</code>
          </figcaption>
        </figure>
      ) : (
        <p class="muted">
          Screenshot <code>{render.screenshot}</code>: screenshot not in this file (it is in the artifact beside the report).
        </p>
      )}
    </div>
  )
}
