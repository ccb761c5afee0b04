import type { Era, Unreachable } from './types.js'
import type { Exchange, RepeatedAnswer } from './wire.js'
import type { AuthProbes } from './probe-auth-data.js'
import type { ErasProbes } from './probe-eras-data.js'
import type { HeaderFormProbes } from './probe-header-forms-data.js'
import type { MrtrProbes } from './probe-mrtr-data.js'
import type { StreamsProbes } from './probe-streams-data.js'
import type { TasksProbes } from './probe-tasks-data.js'

/** Everything the checks look at, gathered once. Checks are pure functions of it. */
export interface ProbeData {
  transport: 'stdio' | 'http'
  era: Era
  /** Which tools the active probes were allowed to call. */
  probes: ProbeMode
  discover: Exchange
  /** Two consecutive tools/list on one connection (first pages). */
  toolsList: Exchange[]
  /** tools/list from a second, fresh process (stdio) or request (HTTP). */
  toolsListFresh?: Exchange
  /** The first pages of prompts/list, resources/list, resources/templates/list (probed whether advertised or not). */
  otherLists: Exchange[]
  /** Every page of the first listing of each list, following nextCursor (the first page is the same exchange as above). */
  listPages?: Partial<Record<ListMethod, Exchange[]>>
  /** resources/read of the first listed resource. */
  resourceRead?: Exchange
  unknownTool?: Exchange
  missingResource?: Exchange
  unsupportedVersion?: Exchange
  missingVersion?: Exchange
  missingCapabilities?: Exchange
  /** Tools called with arguments that break their inputSchema, and the tools left out. */
  invalidArguments?: InvalidArgumentsProbes
  http?: HttpProbes
  /** HTTP: requests with a foreign Origin (and Host), for a server on a loopback address. */
  dnsRebinding?: DnsRebindingProbes
  /** HTTP: calls whose Mcp-Param-* header is missing or differs from the marked argument. */
  paramHeaders?: ParamHeaderProbes
  /** stdio: answers the server sent again for a request it had already answered (each is read once, never as another request's). */
  repeatedAnswers?: RepeatedAnswer[]
  /** Legacy servers: the initialize exchange. */
  initialize?: Exchange
  /** The probe modules' parts (probe-eras.ts, probe-mrtr.ts, …): undefined when not probed. */
  eras?: ErasProbes
  mrtr?: MrtrProbes
  streams?: StreamsProbes
  tasks?: TasksProbes
  auth?: AuthProbes
  /** HTTP, modern: one request in header forms a server must serve alike (names' case, values' whitespace, base64 Mcp-Name) or refuse (a value's case). */
  headerForms?: HeaderFormProbes
  /** Era `unreachable`: what the attempt got, and the exchange that showed it. */
  unreachable?: Unreachable & { reason: string; exchange: Exchange }
}

export type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list'
/**
 * `safe`: the probes that call tools only call those annotated `readOnlyHint: true` (a call with
 * broken arguments should change nothing, but a server that ignores its schema might act on it);
 * `all`: every tool; `none`: no probe calls a tool.
 */
export type ProbeMode = 'safe' | 'all' | 'none'

export interface HttpProbes {
  missingMethodHeader: Exchange
  mismatchedMethodHeader: Exchange
  missingNameHeader: Exchange
  mismatchedNameHeader: Exchange
  mismatchedVersionHeader: Exchange
  get: Exchange
  delete: Exchange
  unknownMethod: Exchange
}

export interface InvalidArgumentsProbes {
  calls: { tool: string; broken: string; exchange: Exchange }[]
  notReadOnly: string[]
  untestable: string[]
  capped: string[]
}

export type DnsRebindingProbes = { local: false; host: string } | { local: true; badOrigin: Exchange; badHostAndOrigin: Exchange }

export interface ParamHeaderProbes {
  probed: { tool: string; header: string; case: 'missing' | 'mismatched'; exchange: Exchange }[]
  /** What was not probed and why, for the message. */
  note: string
}
