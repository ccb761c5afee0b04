/** WWW-Authenticate as RFC 9110 §11.6.1 writes it: challenges, each a scheme and its auth-params (RFC 6750 §3, RFC 9728 §5.1). */

export interface Challenge {
  /** As sent (compare case-insensitively). */
  scheme: string
  /** Parameter names lowercased (they are case-insensitive), values unquoted. */
  params: Record<string, string>
}

const TOKEN = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y
const SPACE = /[ \t,]*/y

/**
 * The challenges of one header value (several headers arrive joined by ", "). Lenient: what
 * cannot be read ends the parse, and what was read is kept.
 */
export function parseChallenges(header: string): Challenge[] {
  const challenges: Challenge[] = []
  let at = 0
  const match = (re: RegExp): string | undefined => {
    re.lastIndex = at
    const m = re.exec(header)
    if (!m) return undefined
    at = re.lastIndex
    return m[0]
  }
  for (let guard = 0; at < header.length && guard < 200; guard++) {
    match(SPACE)
    const token = match(TOKEN)
    if (token === undefined) break
    const before = at
    match(/[ \t]*/y)
    if (header[at] === '=' && challenges.length > 0) {
      at++
      match(/[ \t]*/y)
      let value: string
      if (header[at] === '"') {
        let out = ''
        at++
        while (at < header.length && header[at] !== '"') {
          if (header[at] === '\\' && at + 1 < header.length) at++
          out += header[at++]
        }
        at++
        value = out
      } else {
        value = match(/[^,\s]*/y) ?? ''
      }
      challenges[challenges.length - 1].params[token.toLowerCase()] = value
      continue
    }
    at = before
    challenges.push({ scheme: token, params: {} })
    // A token68 after the scheme (`Basic dXNlcg==`): skipped.
    match(/[ \t]+[A-Za-z0-9+/._~-]+=*(?=\s*(,|$))/y)
  }
  return challenges
}

/** The Bearer challenge, if the header has one. */
export function bearerChallenge(header: string | undefined): Challenge | undefined {
  return header === undefined ? undefined : parseChallenges(header).find((c) => c.scheme.toLowerCase() === 'bearer')
}
