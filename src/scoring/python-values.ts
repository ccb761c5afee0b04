import type { Json } from '../config/types.js'

/**
 * Python's `str()` of a JSON value, as eval-action's matchers see it: `True`, `None`, dicts and
 * lists as reprs with single-quoted strings. Kept so `contains`/`pattern`/string matchers give the
 * same verdicts as eval-action.
 */
export function pyStr(value: Json | undefined): string {
  if (typeof value === 'string') return value
  return pyRepr(value)
}

export function pyRepr(value: Json | undefined): string {
  if (value === null || value === undefined) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (typeof value === 'number') return pyNumber(value)
  if (typeof value === 'string') return pyStringRepr(value)
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`
  return `{${Object.entries(value)
    .map(([k, v]) => `${pyStringRepr(k)}: ${pyRepr(v)}`)
    .join(', ')}}`
}

function pyNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan'
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf'
  return String(n)
}

function pyStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'"
  const escaped = s
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote
}

/** Python `==` between JSON values: `1 == 1.0`, `True == 1`, lists ordered, dicts exact. */
export function pyEquals(a: Json | undefined, b: Json | undefined): boolean {
  const na = numeric(a)
  const nb = numeric(b)
  if (na !== undefined && nb !== undefined) return na === nb
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null)
  if (typeof a === 'string' || typeof b === 'string') return a === b
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]))
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a)
    const kb = Object.keys(b)
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]))
  }
  return false
}

/** Python treats bools as the integers 0 and 1. */
function numeric(v: Json | undefined): number | undefined {
  if (typeof v === 'number') return v
  if (typeof v === 'boolean') return v ? 1 : 0
  return undefined
}
