export const REDACTED = '***'
/** Shorter values would mangle every report they touch ("k" is in every word); they are not redacted. */
export const MIN_SECRET_LENGTH = 4

/** Replace every occurrence of every secret in every string of a JSON-like value. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  const active = usable(secrets)
  if (active.length === 0) return value
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return replaceAll(v, active)
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [replaceAll(k, active), walk(x)]))
    return v
  }
  return walk(value) as T
}

export function redactText(text: string, secrets: readonly string[]): string {
  return replaceAll(text, usable(secrets))
}

function replaceAll(text: string, forms: readonly string[]): string {
  let out = text
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED)
  return out
}

/**
 * A secret as it can appear in what we write: as it is, escaped inside a JSON string (once, or
 * twice for JSON text inside JSON, or with every non-ASCII character as \uXXXX the way Python's
 * json.dumps writes it), and URL-encoded (with %20 or + for spaces).
 */
export function secretForms(secret: string): string[] {
  const json = (text: string) => JSON.stringify(text).slice(1, -1)
  const ascii = json(secret).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  const url = encodeURIComponent(secret)
  return [...new Set([secret, json(secret), json(json(secret)), ascii, url, url.replace(/%20/g, '+')])]
}

/** Every form of every secret, longest first, so a secret that contains another is replaced whole. */
function usable(secrets: readonly string[]): string[] {
  const forms = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH).flatMap(secretForms)
  return [...new Set(forms)].sort((a, b) => b.length - a.length)
}
