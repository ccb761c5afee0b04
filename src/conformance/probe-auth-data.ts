/** What the auth probe gathered: a protected server's resource-server side (401, RFC 9728 metadata, 403 insufficient_scope). */
export interface AuthProbes {
  /** Replaced by the probe's own fields. */
  placeholder?: never
}
