/**
 * The page the view is shown in: a host page on a fixed fake origin holding one sandboxed iframe
 * (`allow-scripts` only: an opaque origin, no access to the host page), and the scripts that relay
 * between them. The view posts to its parent; the host page hands the message to Node through an
 * exposed binding; Node answers through `frame.postMessage` (relay.ts). An init script, run in the
 * iframe before the view's own scripts and outside its CSP, reports CSP violations and turns
 * animations off.
 */

export const HOST_ORIGIN = 'http://mcp-apps-host.invalid'
export const HOST_URL = `${HOST_ORIGIN}/host.html`
export const VIEW_URL = `${HOST_ORIGIN}/view.html`

/** Bindings exposed to the page and the frame. */
export const TO_HOST_BINDING = '__mcpAppsToHost'
export const CSP_BINDING = '__mcpAppsCspViolation'

/** The frame's minimum height: a view that reports a tiny height (or none) still photographs. */
export const MIN_FRAME_HEIGHT = 300
export const MAX_FRAME_HEIGHT = 4000

export function hostPageHtml(allow: string): string {
  const allowAttr = allow ? ` allow="${allow.replace(/[^a-z0-9 ;:'*._/-]/gi, '')}"` : ''
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>MCP Apps host</title>
<style>html,body{margin:0;padding:0;background:#fff}iframe{display:block;border:0;width:100%;height:${MIN_FRAME_HEIGHT}px}</style>
</head><body>
<iframe id="view" sandbox="allow-scripts"${allowAttr} src="${VIEW_URL}"></iframe>
<script>
const frame = document.getElementById('view');
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return;
  window.${TO_HOST_BINDING}(event.data);
});
</script>
</body></html>`
}

/** The init script: in the view's frame only (not the host page). */
export const FRAME_INIT_SCRIPT = `(() => {
  if (window === window.top) return;
  document.addEventListener('securitypolicyviolation', (e) => {
    try { window.${CSP_BINDING}({ blockedURI: String(e.blockedURI || ''), directive: String(e.effectiveDirective || e.violatedDirective || '') }); } catch {}
  });
  const calm = () => {
    const style = document.createElement('style');
    style.textContent = '*,*::before,*::after{animation:none!important;transition:none!important;caret-color:transparent!important}';
    (document.head || document.documentElement).appendChild(style);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', calm); else calm();
})();`

/** The frame's height for a size the view reported: at least the minimum, at most the maximum. */
export function frameHeight(reported: number | undefined): number {
  if (typeof reported !== 'number' || !Number.isFinite(reported)) return MIN_FRAME_HEIGHT
  return Math.min(MAX_FRAME_HEIGHT, Math.max(MIN_FRAME_HEIGHT, Math.ceil(reported)))
}
