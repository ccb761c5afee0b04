import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'
import { describeResponse, errorCode, failed, isObject, passed, skipped, type CheckSpec } from './common.js'
import { listedTools, pageListing } from './schemas.js'

/**
 * `x-mcp-header` (SEP-2243): a tool argument mirrored into an `Mcp-Param-<Name>` HTTP header.
 * The marker's constraints (2026-07-28 server/tools "x-mcp-header", basic/transports/streamable-http
 * "Custom Headers from Tool Parameters") and the server's duty to check the header against the body.
 */

export const HEADER_MARKERS: CheckSpec = {
  id: 'tool-x-mcp-header-valid',
  severity: 'error',
  spec: '§4 SEP-2243 x-mcp-header: a non-empty token, case-insensitively unique, on a string/integer/boolean property reachable through properties only; clients MUST drop a tool that breaks this'
}
export const HTTP_PARAM_HEADER: CheckSpec = {
  id: 'http-mcp-param-header',
  severity: 'error',
  spec: '§4 Mcp-Param-<Name> missing or not equal to the marked argument → 400 + -32020'
}

/** RFC 9110 §5.1 `token` (1*tchar): no spaces, control characters or delimiters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const MARKER_TYPES = new Set(['string', 'integer', 'boolean'])
/** Subschema keywords the `properties`-only chain must not pass through. */
const UNREACHABLE_KEYWORDS = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions'
]
/** Those whose value maps names to subschemas rather than being one subschema or a list. */
const NAMED_SUBSCHEMAS = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions'])

export interface HeaderMarker {
  /** The chain of `properties` keys to the marked argument. */
  path: string[]
  /** The `<Name>` of `Mcp-Param-<Name>`. */
  header: string
  type: 'string' | 'integer' | 'boolean'
}

/** A tool's markers, or every reason its markers are invalid. */
export type MarkerScan = { valid: true; markers: HeaderMarker[] } | { valid: false; problems: string[] }

/** Every `x-mcp-header` in an inputSchema, checked against the marker constraints. */
export function scanHeaderMarkers(inputSchema: unknown): MarkerScan {
  const markers: HeaderMarker[] = []
  const problems: string[] = []
  const seen = new Map<string, string>()
  const where = (path: string[]) => (path.length ? path.join('.') : '<root>')
  const visit = (node: unknown, path: string[], reachable: boolean) => {
    if (!isObject(node)) return
    if ('x-mcp-header' in node) {
      const name = node['x-mcp-header']
      const type = typeof node.type === 'string' ? node.type : undefined
      if (!reachable || path.length === 0) problems.push(`${where(path)}: only a property reached through "properties" alone may carry x-mcp-header`)
      else if (typeof name !== 'string' || name === '') problems.push(`${where(path)}: x-mcp-header must be a non-empty string`)
      else if (!TOKEN.test(name)) problems.push(`${where(path)}: x-mcp-header ${JSON.stringify(name)} is not an HTTP token`)
      else if (!type || !MARKER_TYPES.has(type)) problems.push(`${where(path)}: x-mcp-header ${JSON.stringify(name)} is on a ${type ?? 'untyped'} property (string, integer or boolean only)`)
      else if (seen.has(name.toLowerCase())) problems.push(`${where(path)}: x-mcp-header ${JSON.stringify(name)} repeats ${JSON.stringify(seen.get(name.toLowerCase()))} (names are case-insensitive)`)
      else {
        seen.set(name.toLowerCase(), name)
        markers.push({ path, header: name, type: type as HeaderMarker['type'] })
      }
    }
    if (isObject(node.properties)) for (const [key, child] of Object.entries(node.properties)) visit(child, [...path, key], reachable)
    for (const keyword of UNREACHABLE_KEYWORDS) {
      const sub = node[keyword]
      if (sub === undefined) continue
      const branches = Array.isArray(sub) ? sub : NAMED_SUBSCHEMAS.has(keyword) && isObject(sub) ? Object.values(sub) : [sub]
      for (const branch of branches) visit(branch, [...path, `<${keyword}>`], false)
    }
  }
  visit(inputSchema, [], true)
  return problems.length ? { valid: false, problems } : { valid: true, markers }
}

/**
 * A header value per "Value Encoding": plain visible ASCII as is, anything else (non-ASCII,
 * control characters, leading or trailing space, or a plain value that looks like the sentinel)
 * as `=?base64?<UTF-8 in base64>?=`.
 */
export function encodeHeaderValue(value: string | number | boolean): string {
  const text = String(value)
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(text) && !(text.startsWith('=?base64?') && text.endsWith('?='))
  return plain ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`
}

export function checkHeaderMarkers(probe: ProbeData): CheckResult {
  const tools = listedTools(probe)
  if (!tools) return skipped(HEADER_MARKERS, 'no tool list')
  const invalid: { tool: string; problems: string[] }[] = []
  let marked = 0
  for (const tool of tools) {
    const scan = scanHeaderMarkers(tool.inputSchema)
    if (!scan.valid) invalid.push({ tool: tool.name, problems: scan.problems })
    else if (scan.markers.length) marked++
  }
  if (invalid.length) {
    const what = invalid.map((i) => `${i.tool} (${i.problems.join('; ')})`).join(', ')
    return failed(HEADER_MARKERS, `Streamable HTTP clients must drop these tools, so a model never sees them: ${what}`, pageListing(probe, invalid[0].tool))
  }
  return marked ? passed(HEADER_MARKERS, `${marked} tool${marked === 1 ? '' : 's'} mark arguments with valid x-mcp-header names`) : passed(HEADER_MARKERS, 'no tool uses x-mcp-header')
}

export function checkParamHeaders(probe: ProbeData): CheckResult {
  if (probe.transport === 'stdio') return skipped(HTTP_PARAM_HEADER, 'stdio server: no HTTP binding')
  const probes = probe.paramHeaders
  if (!probes) return skipped(HTTP_PARAM_HEADER, 'not probed')
  if (probes.probed.length === 0) return skipped(HTTP_PARAM_HEADER, probes.note)
  for (const { tool, header, case: which, exchange } of probes.probed) {
    if (exchange.response.status !== 400 || errorCode(exchange) !== -32020) {
      const what = which === 'missing' ? `a ${tool} call without Mcp-Param-${header}` : `a ${tool} call whose Mcp-Param-${header} differs from the argument`
      return failed(HTTP_PARAM_HEADER, `${what} got ${describeResponse(exchange)}; expected HTTP 400 with -32020`, exchange)
    }
  }
  const tools = [...new Set(probes.probed.map((p) => `${p.tool} (Mcp-Param-${p.header})`))]
  return passed(HTTP_PARAM_HEADER, `missing and mismatched Mcp-Param headers → 400 + -32020 on ${tools.join(', ')}${probes.note ? `; ${probes.note}` : ''}`)
}
