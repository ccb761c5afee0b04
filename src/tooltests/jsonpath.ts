import type { Json } from '../config/types.js'
import { compilePath } from '../util/jsonpath.js'

// Paths are parsed where the suite loader checks them too, so parsing lives in util.
export { compilePath, pathProblem, type CompiledPath } from '../util/jsonpath.js'

/**
 * The values of the nodelist `path` selects in `value`, in document order. Throws on a path that
 * does not parse, and when the document nests deeper than json-p3's recursion limit for `..`.
 */
export function queryValues(path: string, value: Json): Json[] {
  return compilePath(path).query(value).values() as Json[]
}

/**
 * A deep copy of `value` without every node any of `paths` selects (for snapshot `ignore`).
 * All locations are found on the original before anything is dropped, so one path's removal
 * cannot shift the array indices another path selected. Selecting the root (`$`) leaves null.
 */
export function removePaths(value: Json, paths: string[]): Json {
  const drop = new Set<string>()
  for (const path of paths) for (const location of compilePath(path).query(value).locations()) drop.add(locationKey(location))
  if (drop.size === 0) return structuredClone(value)
  if (drop.has(locationKey([]))) return null
  return without(value, [], drop)
}

function without(value: Json, location: (string | number)[], drop: Set<string>): Json {
  if (Array.isArray(value)) {
    const out: Json[] = []
    value.forEach((item, index) => {
      const at = [...location, index]
      if (!drop.has(locationKey(at))) out.push(without(item, at, drop))
    })
    return out
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Json> = {}
    for (const [key, item] of Object.entries(value)) {
      const at = [...location, key]
      if (!drop.has(locationKey(at))) out[key] = without(item, at, drop)
    }
    return out
  }
  return value
}

// JSON keeps the member name "0" apart from the index 0.
const locationKey = (location: (string | number)[]) => JSON.stringify(location)
