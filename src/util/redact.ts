export const REDACTED = '***'

/** Replace every occurrence of every secret in every string of a JSON-like value. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  const active = [...new Set(secrets.filter((s) => s.length > 0))].sort((a, b) => b.length - a.length)
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
  for (const secret of secrets) if (secret && out.includes(secret)) out = out.split(secret).join(REDACTED)
  return out
}
