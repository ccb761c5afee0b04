import type { ProbeData } from '../probe-data.js'
import { META, MODERN_VERSION, type CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { NAMES_SHOWN, someOf } from '../../util/words.js'
import { describeResponse, failed, isObject, passed, resultOf, skipped, type CheckSpec } from './common.js'

/** Checks on server/discover, list ordering, caching fields and resultType. */

export const DISCOVER_RESPONDS: CheckSpec = { id: 'discover-responds', severity: 'error', spec: '§2 server/discover' }
export const DISCOVER_VERSIONS: CheckSpec = { id: 'discover-supported-versions', severity: 'error', spec: '§2 server/discover' }
export const DISCOVER_CAPABILITIES: CheckSpec = { id: 'discover-capabilities', severity: 'error', spec: '§2 server/discover' }
export const DISCOVER_SERVER_INFO: CheckSpec = { id: 'discover-server-info', severity: 'warning', spec: '§2, §3 serverInfo in _meta (SHOULD)' }
export const TOOLS_ORDER: CheckSpec = { id: 'tools-list-deterministic-order', severity: 'warning', spec: '§9 tools/list order (SHOULD be deterministic)' }
export const CACHE_FIELDS: CheckSpec = { id: 'list-cache-fields', severity: 'error', spec: '§6 ttlMs and cacheScope' }
export const RESULT_TYPE: CheckSpec = { id: 'result-type-present', severity: 'error', spec: '§7 resultType' }

export function checkDiscover(probe: ProbeData): CheckResult[] {
  const result = resultOf(probe.discover)
  if (!result) {
    const why = `server/discover got ${describeResponse(probe.discover)}`
    return [failed(DISCOVER_RESPONDS, why, probe.discover), ...[DISCOVER_VERSIONS, DISCOVER_CAPABILITIES, DISCOVER_SERVER_INFO].map((c) => skipped(c, 'no discover result'))]
  }
  const versions = result.supportedVersions
  const info = isObject(result._meta) ? result._meta[META.serverInfo] : undefined
  return [
    passed(DISCOVER_RESPONDS, 'server/discover answered', probe.discover),
    Array.isArray(versions) && versions.includes(MODERN_VERSION)
      ? passed(DISCOVER_VERSIONS, `supportedVersions: ${JSON.stringify(versions)}`)
      : failed(DISCOVER_VERSIONS, `supportedVersions must list ${MODERN_VERSION}; got ${JSON.stringify(versions)}`, probe.discover),
    isObject(result.capabilities)
      ? passed(DISCOVER_CAPABILITIES, `capabilities: ${Object.keys(result.capabilities).join(', ') || '(none)'}`)
      : failed(DISCOVER_CAPABILITIES, 'the discover result has no capabilities object', probe.discover),
    isObject(info) && typeof info.name === 'string'
      ? passed(DISCOVER_SERVER_INFO, `serverInfo: ${String(info.name)} ${String(info.version ?? '')}`.trim())
      : failed(DISCOVER_SERVER_INFO, `the discover result's _meta has no ${META.serverInfo}`, probe.discover)
  ]
}

function toolNames(exchange: Exchange | undefined): string[] | undefined {
  const tools = resultOf(exchange)?.tools
  return Array.isArray(tools) ? tools.map((t) => (isObject(t) ? String(t.name) : '?')) : undefined
}

/** "[a, b] then [b, a]"; lists too long to name whole say where they part. */
function orders(first: string[], second: string[]): string {
  const text = `[${someOf(first)}] then [${someOf(second)}]`
  if (first.length <= NAMES_SHOWN && second.length <= NAMES_SHOWN) return text
  let at = 0
  while (at < first.length && first[at] === second[at]) at++
  return `${text}, first apart at position ${at + 1} (${first[at] ?? 'the end'} then ${second[at] ?? 'the end'})`
}

export function checkToolsOrder(probe: ProbeData): CheckResult {
  const [first, second] = probe.toolsList.map(toolNames)
  if (!first || !second) return skipped(TOOLS_ORDER, `tools/list got ${describeResponse(probe.toolsList[0])}`)
  if (first.join('\n') !== second.join('\n')) {
    return failed(TOOLS_ORDER, `two consecutive tools/list calls returned different orders: ${orders(first, second)}`, probe.toolsList[1])
  }
  const fresh = toolNames(probe.toolsListFresh)
  const freshWhere = probe.transport === 'stdio' ? 'a second server process' : 'a second request'
  if (fresh && fresh.join('\n') !== first.join('\n')) {
    return failed(TOOLS_ORDER, `${freshWhere} listed the tools in another order: ${orders(first, fresh)}`, probe.toolsListFresh)
  }
  return passed(TOOLS_ORDER, `same order on two calls${fresh ? ` and from ${freshWhere}` : ''} (${first.length} tools)`)
}

/** Every list exchange: the first pages, the repeated and fresh tools/list, and every later page. */
export function listExchanges(probe: ProbeData): Exchange[] {
  const pages = Object.values(probe.listPages ?? {}).flat()
  return [...new Set([...probe.toolsList, ...probe.otherLists, ...pages])]
}

/** Results that must carry ttlMs and cacheScope: discover, every page of the lists, resources/read (§6). */
function cacheableExchanges(probe: ProbeData): Exchange[] {
  return [probe.discover, ...listExchanges(probe), ...(probe.resourceRead ? [probe.resourceRead] : [])]
}

export function checkCacheFields(probe: ProbeData): CheckResult {
  const problems: { exchange: Exchange; problem: string }[] = []
  let seen = 0
  for (const exchange of cacheableExchanges(probe)) {
    const result = resultOf(exchange)
    if (!result || (result.resultType !== undefined && result.resultType !== 'complete')) continue
    seen++
    const { ttlMs, cacheScope } = result
    if (!(typeof ttlMs === 'number' && Number.isInteger(ttlMs) && ttlMs >= 0)) problems.push({ exchange, problem: `${exchange.method}: ttlMs is ${JSON.stringify(ttlMs) ?? 'missing'} (an integer ≥ 0 is required)` })
    if (cacheScope !== 'public' && cacheScope !== 'private') problems.push({ exchange, problem: `${exchange.method}: cacheScope is ${JSON.stringify(cacheScope) ?? 'missing'} ("public" or "private")` })
  }
  if (seen === 0) return skipped(CACHE_FIELDS, 'no complete list result to inspect')
  if (problems.length > 0) return failed(CACHE_FIELDS, unique(problems.map((p) => p.problem)).join('; '), problems[0].exchange)
  return passed(CACHE_FIELDS, `ttlMs and cacheScope on all ${seen} cacheable results`)
}

const INPUT_REQUIRED_ALLOWED = new Set(['tools/call', 'prompts/get', 'resources/read'])

export function checkResultType(probe: ProbeData): CheckResult {
  const calls = probe.invalidArguments?.calls.map((c) => c.exchange) ?? []
  const exchanges = [probe.discover, ...listExchanges(probe), probe.resourceRead, probe.unknownTool, ...calls].filter((e): e is Exchange => !!e)
  const problems: { exchange: Exchange; problem: string }[] = []
  let seen = 0
  for (const exchange of exchanges) {
    const result = resultOf(exchange)
    if (!result) continue
    seen++
    const type = result.resultType
    if (type === undefined) problems.push({ exchange, problem: `${exchange.method}: no resultType` })
    else if (type === 'input_required' && !INPUT_REQUIRED_ALLOWED.has(exchange.method)) problems.push({ exchange, problem: `${exchange.method}: input_required is only allowed on tools/call, prompts/get and resources/read` })
    else if (type !== 'complete' && type !== 'input_required') problems.push({ exchange, problem: `${exchange.method}: unknown resultType ${JSON.stringify(type)}` })
  }
  if (seen === 0) return skipped(RESULT_TYPE, 'no result to inspect')
  if (problems.length > 0) return failed(RESULT_TYPE, unique(problems.map((p) => p.problem)).join('; '), problems[0].exchange)
  return passed(RESULT_TYPE, `resultType on all ${seen} results`)
}

const unique = (items: string[]) => [...new Set(items)]
