/** A JSON value as it came from YAML or a server. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/**
 * A JSON-like value with `leaf` applied to every string, number and other leaf and `key` to every
 * object key, as plain arrays and objects; a part where nothing changed is the part itself, not a
 * copy.
 */
export function mapJsonLeaves(value: unknown, leaf: (v: unknown) => unknown, key: (k: string) => string = (k) => k): unknown {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      let copy: unknown[] | null = null
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i]
        const mapped = walk(x)
        if (copy === null && mapped !== x) copy = v.slice(0, i)
        copy?.push(mapped)
      }
      return copy ?? v
    }
    if (v && typeof v === 'object') {
      const keys = Object.keys(v)
      let copy: [string, unknown][] | null = isPlain(v) ? null : []
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!
        const x: unknown = (v as Record<string, unknown>)[k]
        const k2 = key(k)
        const x2 = walk(x)
        if (copy === null && (k2 !== k || x2 !== x)) copy = keys.slice(0, i).map((same) => [same, (v as Record<string, unknown>)[same]])
        copy?.push([k2, x2])
      }
      return copy ? Object.fromEntries(copy) : v
    }
    return leaf(v)
  }
  return walk(value)
}

/** An object whose copy by its entries would be the same object again (no prototype of its own, nothing but enumerable own string keys). */
function isPlain(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown
  return (proto === Object.prototype || proto === null) && Object.getOwnPropertySymbols(v).length === 0 && Object.getOwnPropertyNames(v).length === Object.keys(v).length
}
