import { createHash } from 'node:crypto'

/**
 * JSON that can stand inside a `<script type="application/json">` element: `<`, `>` and `&` as
 * \u escapes (no `</script>` or `<!--` can end or change the element), and U+2028/U+2029 escaped
 * too. JSON.parse of the element's text gives the value back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** The CSP source that allows exactly this inline script or style element's text: 'sha256-…'. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`
}

/**
 * The report's Content-Security-Policy: nothing from the network, no script but its own (by
 * hash), no style but its own, pictures only from data: URLs inside the file.
 */
export function reportCsp(script: string, style: string): string {
  return [
    "default-src 'none'",
    `script-src ${cspHash(script)}`,
    `style-src ${cspHash(style)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'"
  ].join('; ')
}
