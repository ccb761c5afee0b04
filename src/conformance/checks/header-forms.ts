import type { Catalog } from '../catalog-types.js'
import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'
import type { Exchange } from '../wire.js'
import { describeResponse, errorCode, failed, passed, skipped, type CheckSpec } from './common.js'

/** The forms of the MCP headers a 2026-07-28 server must read alike, or refuse (§4, SEP-2243). */

export const HEADER_CASE_AND_WHITESPACE: CheckSpec = {
  id: 'http-header-case-and-whitespace',
  severity: 'error',
  spec: '§4 header names are case-insensitive and values are read without surrounding whitespace (RFC 9110 §5.1, §5.5): MCP-METHOD or a padded value is served like the normal request'
}
export const HEADER_VALUE_CASE: CheckSpec = {
  id: 'http-header-value-case',
  severity: 'error',
  spec: '§4 header values are case-sensitive: an Mcp-Method that differs from the body only in case → 400 + -32020'
}
export const NAME_HEADER_BASE64: CheckSpec = {
  id: 'http-mcp-name-base64',
  severity: 'error',
  spec: '§4 "Value Encoding": an Mcp-Name sent as =?base64?…?= is decoded before it is compared to the body'
}

const ALL = [HEADER_CASE_AND_WHITESPACE, HEADER_VALUE_CASE, NAME_HEADER_BASE64]

/** What a server answered, as far as "served alike" goes: the status, and the result or the error code. */
const outcome = (e: Exchange) => `${e.response.status ?? '-'} ${e.response.frame?.result ? 'result' : (errorCode(e) ?? (e.response.timedOut ? 'timeout' : 'other'))}`
const sameAs = (normal: Exchange, other: Exchange) => outcome(normal) === outcome(other)

export function checkHeaderForms(probe: ProbeData): CheckResult[] {
  if (probe.transport === 'stdio') return ALL.map((c) => skipped(c, 'stdio server: no HTTP headers'))
  if (probe.era === 'legacy') return ALL.map((c) => skipped(c, 'legacy server: applies from 2026-07-28'))
  const forms = probe.headerForms
  if (!forms) return ALL.map((c) => skipped(c, 'not probed'))
  const { normal } = forms
  // A normal request the server does not answer (refused, broken) leaves nothing to compare with.
  if (normal.response.frame === undefined || (normal.response.status !== undefined && normal.response.status >= 500) || normal.response.status === 401 || normal.response.status === 403) {
    return ALL.map((c) => skipped(c, `the normal ${forms.method} got ${describeResponse(normal)}: nothing to compare with`))
  }
  const served = `${forms.method} with the normal headers got ${describeResponse(normal)}`
  const headers = forms.named ? 'MCP-METHOD, MCP-PROTOCOL-VERSION and MCP-NAME' : 'MCP-METHOD and MCP-PROTOCOL-VERSION'
  const alike = [
    ['the header names in upper case', forms.otherCase],
    ['every MCP header value padded with spaces and a tab', forms.padded]
  ] as const
  const differs = alike.find(([, e]) => !sameAs(normal, e))
  const upper = forms.upperValue
  const base64 = forms.base64Name
  return [
    differs
      ? failed(HEADER_CASE_AND_WHITESPACE, `${forms.method} with ${differs[0]} got ${describeResponse(differs[1])}; ${served}: names are case-insensitive and values are read without the whitespace around them`, differs[1])
      : passed(HEADER_CASE_AND_WHITESPACE, `${headers} in upper case, and every value padded, are served like the normal request (${describeResponse(normal)})`, forms.otherCase),
    upper.response.status === 400 && errorCode(upper) === -32020
      ? passed(HEADER_VALUE_CASE, `Mcp-Method: ${forms.method.toUpperCase()} → 400 + -32020`, upper)
      : failed(HEADER_VALUE_CASE, `Mcp-Method: ${forms.method.toUpperCase()} (the body says ${forms.method}) got ${describeResponse(upper)}; expected HTTP 400 with -32020: values are compared case-sensitively`, upper),
    !base64
      ? skipped(NAME_HEADER_BASE64, `the server declares no tools, resources or prompts: ${forms.method} carries no Mcp-Name`)
      : sameAs(normal, base64)
        ? passed(NAME_HEADER_BASE64, `an Mcp-Name as =?base64?…?= is decoded: served like the normal request (${describeResponse(normal)})`, base64)
        : failed(NAME_HEADER_BASE64, `${forms.method} with its Mcp-Name as =?base64?…?= got ${describeResponse(base64)}; ${served}: a server decodes the sentinel form before comparing`, base64)
  ]
}

/** These checks' revisions and official-suite mapping. */
export const HEADER_FORMS_CATALOG: Catalog = {
  [HEADER_CASE_AND_WHITESPACE.id]: {
    revision: '2026-07-28',
    official: {
      scenarios: ['http-header-validation:sep-2243-header-name-case-insensitive', 'http-header-validation:sep-2243-server-accepts-whitespace-header-value'],
      scoring: 'unscored',
      note: 'pending in the 2026-07-28 requirements; it sends mcp-method and MCP-METHOD on tools/list, and pads Mcp-Name on a real call of the first listed tool; here all three names and values, on a request that runs nothing'
    }
  },
  [HEADER_VALUE_CASE.id]: {
    revision: '2026-07-28',
    official: {
      scenarios: ['http-header-validation:sep-2243-server-reject-invalid-headers', 'http-header-validation:sep-2243-server-reject-error-code'],
      scoring: 'unscored',
      note: 'pending; there a 400 without -32020 is only a WARNING (sep-2243-server-reject-error-code), here it fails, as http-mcp-method-header does'
    }
  },
  [NAME_HEADER_BASE64.id]: {
    revision: '2026-07-28',
    official: {
      scenarios: [],
      scoring: 'none',
      note: 'the official suite decodes =?base64?…?= only on Mcp-Param headers (http-custom-header-server-validation:sep-2243-server-decode-base64, unscored), never on Mcp-Name'
    }
  }
}
