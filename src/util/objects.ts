import type { Json } from './json.js'

/** A plain object (not null, not an array): what JSON calls an object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Appends `item` and drops the oldest entries past `limit`: a list that keeps only the last few. */
export function keepLast<T>(list: T[], item: T, limit: number): void {
  list.push(item)
  if (list.length > limit) list.shift()
}

/** The same value with every object's keys in sorted order, so that equal values print alike. */
export function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys(value[k])])
    )
  }
  return value
}
