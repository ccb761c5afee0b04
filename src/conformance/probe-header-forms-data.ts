import type { Exchange } from './wire-types.js'

/**
 * What the header-forms probe gathered (HTTP, 2026-07-28): one request, sent through node:http
 * (which keeps header names as written and values untrimmed) in its normal form and in forms a
 * server must serve alike or refuse (§4).
 */
export interface HeaderFormProbes {
  /** The request every form repeats: a named one (tools/call of an unknown tool, …) when the server declares one, else server/discover. */
  method: string
  /** Whether it carries Mcp-Name. */
  named: boolean
  /** Header names in lower case, values as they are. */
  normal: Exchange
  /** MCP-METHOD, MCP-PROTOCOL-VERSION (and MCP-NAME): the names in upper case. */
  otherCase: Exchange
  /** Every MCP header value with spaces and a tab around it. */
  padded: Exchange
  /** Mcp-Method in upper case: a value that differs from the body (values are case-sensitive). */
  upperValue: Exchange
  /** Mcp-Name as =?base64?…?= (named requests only). */
  base64Name?: Exchange
}
