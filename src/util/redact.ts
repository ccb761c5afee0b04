export const REDACTED = '***'
/** Shorter values would mangle every report they touch ("k" is in every word); they are not redacted. */
export const MIN_SECRET_LENGTH = 4

/** Replace every occurrence of every secret in every string of a JSON-like value. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  const active = usable(secrets)
  if (active.length === 0) return value
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, active)
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [redactText(k, active), walk(x)]))
    return v
  }
  return walk(value) as T
}

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of usable(secrets)) if (out.includes(secret)) out = out.split(secret).join(REDACTED)
  return out
}

/** Longest first, so a secret that contains another is replaced whole. */
function usable(secrets: readonly string[]): string[] {
  return [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length)
}
