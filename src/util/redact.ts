import { mapJsonLeaves } from './json.js'

export const REDACTED = '***'
/** Shorter values would mangle every report they touch ("k" is in every word); they are not redacted. */
export const MIN_SECRET_LENGTH = 4

/**
 * Replace every occurrence of every secret in every string of a JSON-like value. Copied only
 * where something was replaced: a part with no secret in it is returned as it is (as the whole
 * value is when there are no secrets), so redacting a large document costs the parts that change.
 */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  const active = usable(secrets)
  if (active.length === 0) return value
  return mapJsonLeaves(value, (v) => (typeof v === 'string' ? replaceAll(v, active) : v), (k) => replaceAll(k, active)) as T
}

export function redactText(text: string, secrets: readonly string[]): string {
  return replaceAll(text, usable(secrets))
}

function replaceAll(text: string, forms: readonly string[]): string {
  let out = text
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED)
  return out
}

/**
 * A secret as it can appear in what we write: as it is, escaped inside a JSON string (once, or
 * twice for JSON text inside JSON, or with every non-ASCII character as \uXXXX the way Python's
 * json.dumps writes it), and URL-encoded (with %20 or + for spaces).
 */
export function secretForms(secret: string): string[] {
  const json = (text: string) => JSON.stringify(text).slice(1, -1)
  const ascii = json(secret).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  const url = encodeURIComponent(secret)
  return [...new Set([secret, json(secret), json(json(secret)), ascii, url, url.replace(/%20/g, '+')])]
}

/** Every form of every secret, longest first, so a secret that contains another is replaced whole. */
function usable(secrets: readonly string[]): string[] {
  const forms = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH).flatMap(secretForms)
  return [...new Set(forms)].sort((a, b) => b.length - a.length)
}

/**
 * Query parameters whose value is a credential, by name: api-key, api_key, key, token,
 * access_token, sig, signature, secret, password, auth, code, subscription-key and the like.
 */
const CREDENTIAL_PARAM = /key|token|secret|sig|passw|pwd|auth|credential|session|jwt|^pass$|^code$/i
/** A value that is only `${NAME}` placeholders: a template as written, no secret (what it expands to is one). */
const PLACEHOLDERS_ONLY = /^(?:\$\{[A-Za-z_][A-Za-z0-9_]*\})+$/

/**
 * The credentials written into a URL (`https://user:pass@host/v1?api-key=…`): the password, the
 * user name when it stands alone (`https://TOKEN@host`), the value of every query parameter
 * named like a credential, each as written and decoded, as secrets to redact everywhere; and
 * the URL as it may be recorded, each of those masked (`https://user:***@host/v1?api-key=***`),
 * the rest exactly as written. A text that is no URL has none.
 */
export function urlCredentials(url: string): { secrets: string[]; masked: string } {
  const secrets = new Set<string>()
  const add = (raw: string) => {
    if (raw === '') return
    secrets.add(raw)
    try {
      secrets.add(decodeURIComponent(raw.replace(/\+/g, ' ')))
      secrets.add(decodeURIComponent(raw))
    } catch {
      // Not valid percent-encoding: as written only.
    }
  }
  let masked = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i, (_whole, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':')
    if (PLACEHOLDERS_ONLY.test(userinfo.slice(colon + 1))) return `${scheme}${userinfo}@`
    if (colon < 0) {
      add(userinfo)
      return `${scheme}${REDACTED}@`
    }
    add(userinfo.slice(colon + 1))
    add(userinfo)
    return `${scheme}${userinfo.slice(0, colon)}:${REDACTED}@`
  })
  masked = masked.replace(/\?([^#]*)/, (_whole, query: string) => {
    const pairs = query.split('&').map((pair) => {
      const eq = pair.indexOf('=')
      if (eq < 0) return pair
      let name = pair.slice(0, eq)
      try {
        name = decodeURIComponent(name)
      } catch {
        // As written.
      }
      if (!CREDENTIAL_PARAM.test(name) || pair.slice(eq + 1) === '' || PLACEHOLDERS_ONLY.test(pair.slice(eq + 1))) return pair
      add(pair.slice(eq + 1))
      return `${pair.slice(0, eq)}=${REDACTED}`
    })
    return `?${pairs.join('&')}`
  })
  return { secrets: [...secrets], masked }
}
