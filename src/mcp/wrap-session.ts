import type { McpSession } from './types.js'

/**
 * A session that is `session` except for what `overrides` replaces. Every other member reads
 * through to the session underneath at the moment it is read (getters, not copies), so a wrapper
 * outside this one still sees the live tool list — a rug pull changes it mid-run.
 */
export function wrapSession(session: McpSession, overrides: Partial<McpSession>): McpSession {
  const wrapped: McpSession = {
    get era() {
      return session.era
    },
    get protocolVersion() {
      return session.protocolVersion
    },
    get tools() {
      return session.tools
    },
    get resources() {
      return session.resources
    },
    get prompts() {
      return session.prompts
    },
    get timings() {
      return session.timings
    },
    get connected() {
      return session.connected
    },
    callTool: (name, args, signal) => session.callTool(name, args, signal),
    callToolRaw: (name, args, signal) => session.callToolRaw(name, args, signal),
    readResource: (uri, signal) => session.readResource(uri, signal),
    getPrompt: (name, args, signal) => session.getPrompt(name, args, signal),
    stderrTail: () => session.stderrTail(),
    sessionHappenings: () => session.sessionHappenings(),
    sessionRounds: () => session.sessionRounds(),
    idle: () => session.idle?.() ?? Promise.resolve(),
    close: () => session.close()
  }
  // Accessors copy as accessors: a getter among the overrides stays live.
  return Object.defineProperties(wrapped, Object.getOwnPropertyDescriptors(overrides))
}
