import { SdkErrorCode, type DiscoverResult, type PriorDiscovery } from '@modelcontextprotocol/client'
import type { ServerConfig } from '../config/types.js'
import { resolveRunDir, runDirSubdirs, usesRunDir } from '../config/run-dir.js'
import { codeOf, isPeerError, ServerError } from './errors.js'
import { openSession } from './open-session.js'
import { runDirsBase } from '../config/run-dir.js'
import { makeRunDir } from './run-dirs.js'
import type { SessionFactory } from './types.js'

// The session's shapes, its errors and its outcomes, where its many importers look for them.
export type {
  CallInput,
  CallOutcome,
  ClientInputs,
  FetchLike,
  InputAnswer,
  McpPrompt,
  McpResource,
  McpSession,
  McpTool,
  McpToolUi,
  OpenOptions,
  RawCallResponse,
  RawToolCall,
  SessionFactory,
  SessionHappenings
} from './types.js'
export { ServerError } from './errors.js'
export { outcomeOf } from './outcome.js'
export { toolUiOf } from './listings.js'

/**
 * Opens sessions against one server, each with the era verdict as the SDK's `prior`, so no open
 * probes and none waits: the conformance probe's verdict when it ran (`options.prior`), else the
 * first verdict an open learned. An open without one negotiates in place, on its own process
 * (`server/discover`, then `initialize` for a legacy server): no throw-away copy of the server
 * starts, and the opens that come before the first verdict negotiate too rather than wait for it.
 * A verdict that does not fit (a legacy server told modern, a modern-only one told legacy, a
 * discover result the SDK refuses) costs that open one more try, negotiating, and what it learns
 * replaces the verdict; a legacy server that exits on any request before `initialize` (why the
 * SDK would probe on a sibling) is opened again as legacy.
 */
export function createSessionFactory(
  config: ServerConfig,
  options: { probeTimeoutMs?: number; requestTimeoutMs?: number; prior?: PriorDiscovery } = {}
): SessionFactory {
  let verdict = options.prior
  const settings = { probeTimeoutMs: options.probeTimeoutMs ?? 5000, requestTimeoutMs: options.requestTimeoutMs }
  return {
    transport: config.kind,
    async open(signal, open = {}) {
      // A server that keeps its state in ${RUN_DIR} gets a directory per session when the caller has none for it.
      const own = usesRunDir(config) && open.runDir === undefined ? await makeRunDir(runDirsBase(), 'session', (dir) => runDirSubdirs(dir, config.kind === 'stdio' ? config.cwd : undefined, config.roots ?? [])) : undefined
      const runDir = open.runDir ?? own?.path
      // Without a directory there is no `${RUN_DIR}` to fill, but an escaped `$${RUN_DIR}` still becomes its literal.
      const resolved = resolveRunDir(config, runDir ?? '')
      // The verdict is the era and the server's discover result only: the client capabilities a
      // later open declares (per request on modern, at initialize on legacy) do not change it.
      const attempt = (prior: PriorDiscovery | undefined) =>
        openSession(resolved, { ...settings, prior, signal, wrapFetch: open.wrapFetch, traceMeta: open.traceMeta, inputs: open.inputs, serverFrames: open.serverFrames })
      const opening = (async () => {
        const prior = verdict
        try {
          const session = await attempt(prior)
          // A failed open leaves no verdict: the next open negotiates again.
          verdict ??= session.prior
          return session
        } catch (error) {
          const retry = signal.aborted ? null : retryFor(error, prior)
          if (!retry) throw error
          const session = await attempt(retry.prior)
          verdict = session.prior
          return session
        }
      })()
      if (!own) return opening
      const session = await opening.catch(async (error: unknown) => {
        await own.dispose(false)
        throw error
      })
      return { ...session, close: () => session.close().finally(() => own.dispose(false)) }
    }
  }
}

/**
 * The `prior` a conformance era verdict gives the sessions; undefined when it gives none (a
 * modern error code without a discover result). The SDK checks a discover result against its
 * schema when it is used: one it refuses makes that open negotiate (see retryFor).
 */
export function priorOf(verdict: { era: 'modern'; discover: Record<string, unknown> | null } | { era: 'legacy' }): PriorDiscovery | undefined {
  if (verdict.era === 'legacy') return LEGACY_PRIOR
  return verdict.discover ? { kind: 'modern', discover: verdict.discover as DiscoverResult } : undefined
}

const LEGACY_PRIOR: PriorDiscovery = { kind: 'legacy' }

/**
 * What a failed open is tried again with, once; null when the failure is the server's own (it
 * crashed, hung, or was cancelled: a retry would only fail again). With a prior: the SDK refused
 * it, or the server answered the handshake or the listing with a JSON-RPC error (a legacy server
 * asked without initialize, a modern-only one sent initialize): negotiate instead. Without: the
 * connection closed during the in-place `server/discover`, as a legacy server that exits on it
 * does: open as legacy (a server that dies as it starts looks the same, and is started twice, as
 * the SDK's sibling probe started it twice).
 */
function retryFor(error: unknown, prior: PriorDiscovery | undefined): { prior: PriorDiscovery | undefined } | null {
  const cause = error instanceof ServerError ? error.cause : undefined
  if (prior) return isPeerError(cause) || codeOf(cause) === SdkErrorCode.EraNegotiationFailed ? { prior: undefined } : null
  const closedOnProbe = codeOf(cause) === SdkErrorCode.EraNegotiationFailed && cause instanceof Error && cause.message.includes('closed during the server/discover probe')
  return closedOnProbe ? { prior: LEGACY_PRIOR } : null
}
