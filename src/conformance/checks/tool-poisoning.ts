import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'
import { failed, isObject, passed, skipped, type CheckSpec } from './common.js'
import { listedTools, pageListing, type Tool } from './schemas.js'
import { toolListProblem, unreadableToolList } from './responses.js'
import { codePoint } from '../../util/text.js'

/**
 * Static tool-poisoning scan (no model): a tool's description and schemas reach the model as
 * trusted text, so instructions, hidden characters, comments or addresses there are the attack
 * surface MCPSecBench (arXiv 2508.13220) calls Tool Poisoning and the OWASP Agent Security
 * Regression Harness files under mcp_trust_boundary (Invariant Labs' `<IMPORTANT>` example).
 * A warning: a finding is worth a look, not proof of intent.
 */
export const TOOL_POISONING: CheckSpec = {
  id: 'tool-description-poisoning',
  severity: 'warning',
  spec: 'security: tool descriptions and schemas are read by the model as instructions; hidden or instruction-like text there is tool poisoning (MCPSecBench, OWASP mcp_trust_boundary)'
}

export type PoisoningKind = 'instruction' | 'hidden-unicode' | 'html-comment' | 'url' | 'email'

export interface PoisoningFinding {
  tool: string
  /** Where: `description`, `inputSchema.properties.to.description`. */
  where: string
  kind: PoisoningKind
  /** What was found, in a few words. */
  what: string
  /** A short excerpt, hidden characters shown as U+XXXX. */
  excerpt: string
}

/** Phrases that address the model rather than describe the tool; each names what it is. */
const INSTRUCTIONS: [RegExp, string][] = [
  [/\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|other)\s+(?:instructions?|prompts?|messages?|rules|directions)/i, 'ignore previous instructions'],
  [/\b(?:do\s+not|don['’]t|never)\s+(?:tell|inform|mention|reveal|show|notify|alert)\b[^.\n]{0,40}\buser\b/i, 'hide it from the user'],
  [/\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user\b/i, 'hide it from the user'],
  [/<\s*\/?\s*(?:important|system|instructions?|secret|hidden|admin)\b[^>]*>/i, 'a pseudo-tag the model may obey'],
  [/\bsystem\s+prompt\b/i, 'mentions the system prompt'],
  [/\bbefore\s+(?:using|calling|invoking|running)\s+(?:this|the|any)\s+tool\b/i, 'a precondition for the model'],
  [/\byou\s+are\s+now\b|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|different)\b/i, 'recasts the model'],
  [/(?:~\/\.ssh|\bid_rsa\b|\.aws\/credentials|\bmcp\.json\b|\.cursor\/|\bprivate\s+key\b)/i, 'names a credential file'],
  [/\b(?:instead\s+of|rather\s+than)\s+(?:using|calling)\b|\b(?:overrides?|supersedes?|replaces?)\s+(?:the\s+|any\s+|all\s+)?(?:other\s+)?tools?\b/i, 'steers the model away from other tools']
]

/** Characters a person does not see: tag characters, zero-width and invisible operators, bidi controls. */
const HIDDEN = /[\u{E0000}-\u{E007F}\u200B-\u200F\u2060-\u2064\uFEFF\u180E\u00AD\u061C\u202A-\u202E\u2066-\u2069]/gu
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/
const URL_PATTERN = /\b(?:https?|ftp|file|wss?):\/\/[^\s"'<>)\]]+/gi
const EMAIL = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/gi
/** RFC 2606 documentation domains: an example address is not an address anyone reaches. */
const DOCUMENTATION_HOST = /(?:^|\.)example\.(?:com|net|org)$/i

/** Schema keys whose strings are machinery, not prose the model reads. */
const MACHINERY = new Set(['$schema', '$id', '$ref', '$anchor', '$dynamicRef', '$dynamicAnchor', '$comment', 'format', 'pattern', 'type', 'contentEncoding', 'contentMediaType'])

/** Every prose string of a tool, with where it is. */
function textsOf(tool: Tool): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = []
  if (typeof tool.description === 'string') out.push({ where: 'description', text: tool.description })
  if (isObject(tool.annotations) && typeof tool.annotations.title === 'string') out.push({ where: 'annotations.title', text: tool.annotations.title })
  const { title } = tool as { title?: unknown }
  if (typeof title === 'string') out.push({ where: 'title', text: title })
  const walk = (value: unknown, where: string) => {
    if (typeof value === 'string') out.push({ where, text: value })
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}[${i}]`))
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) if (!MACHINERY.has(k)) walk(v, `${where}.${k}`)
  }
  walk(tool.inputSchema, 'inputSchema')
  if (tool.outputSchema !== undefined) walk(tool.outputSchema, 'outputSchema')
  return out
}

/** `U+E0049` for a character nobody sees (and for other control and format characters). */
export function showHidden(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\u{E0000}-\u{E007F}\u180E\u00AD]/gu, (c) => (c === '\n' || c === '\t' ? ' ' : codePoint(c)))
}

function excerpt(text: string, index: number, length: number, max = 60): string {
  const start = Math.max(0, index - 15)
  const piece = text.slice(start, Math.min(text.length, Math.max(index + length, start + max)))
  const shown = showHidden(piece).replace(/\s+/g, ' ').trim()
  const cut = shown.length > max + 20 ? `${shown.slice(0, max + 20)}…` : shown
  return `${start > 0 ? '…' : ''}${cut}`
}

/** Tag characters decoded: what the hidden text says. */
function decodeTags(chars: string[]): string {
  return chars
    .map((c) => c.codePointAt(0)!)
    .filter((cp) => cp >= 0xe0020 && cp <= 0xe007e)
    .map((cp) => String.fromCharCode(cp - 0xe0000))
    .join('')
}

/** Everything suspicious in one tool. */
export function scanTool(tool: Tool): PoisoningFinding[] {
  const findings: PoisoningFinding[] = []
  for (const { where, text } of textsOf(tool)) {
    const add = (kind: PoisoningKind, what: string, index: number, length: number) => findings.push({ tool: tool.name, where, kind, what, excerpt: excerpt(text, index, length) })
    // One finding per text, naming every phrase kind found, quoting the first.
    const phrases = INSTRUCTIONS.flatMap(([pattern, what]) => {
      const m = pattern.exec(text)
      return m ? [{ what, index: m.index, length: m[0].length }] : []
    }).sort((a, b) => a.index - b.index)
    if (phrases.length > 0) add('instruction', `instruction-like text (${[...new Set(phrases.map((p) => p.what))].join(', ')})`, phrases[0].index, phrases[0].length)
    const hidden = [...text.matchAll(HIDDEN)]
    if (hidden.length > 0) {
      const tags = hidden.filter((m) => m[0].codePointAt(0)! >= 0xe0000).map((m) => m[0])
      const decoded = decodeTags(tags)
      const codes = [...new Set(hidden.map((m) => codePoint(m[0])))]
      const what = `hidden Unicode (${hidden.length} × ${codes.slice(0, 3).join(', ')}${codes.length > 3 ? ', …' : ''})${decoded ? `, decoded: "${decoded.length > 60 ? `${decoded.slice(0, 60)}…` : decoded}"` : ''}`
      add('hidden-unicode', what, hidden[0].index, 1)
    }
    const comment = HTML_COMMENT.exec(text)
    if (comment) add('html-comment', 'an HTML comment (hidden when rendered)', comment.index, comment[0].length)
    for (const m of text.matchAll(URL_PATTERN)) {
      if (isDocumentation(m[0])) continue
      add('url', 'a URL', m.index, m[0].length)
      break
    }
    for (const m of text.matchAll(EMAIL)) {
      if (DOCUMENTATION_HOST.test(m[0].split('@')[1])) continue
      add('email', 'an email address', m.index, m[0].length)
      break
    }
  }
  return findings
}

function isDocumentation(url: string): boolean {
  try {
    return DOCUMENTATION_HOST.test(new URL(url).hostname)
  } catch {
    return false
  }
}

/** How many findings the message lists before "and N more". */
const LISTED = 8

export function checkToolPoisoning(probe: ProbeData): CheckResult {
  const tools = listedTools(probe)
  // A skip the server can force (a list it made unreadable) is a finding: its descriptions were not scanned.
  const unreadable = toolListProblem(probe)
  if (unreadable) return unreadableToolList(TOOL_POISONING, unreadable)
  if (!tools || tools.length === 0) return skipped(TOOL_POISONING, 'no tools listed')
  const findings = tools.flatMap(scanTool)
  if (findings.length === 0) return passed(TOOL_POISONING, `${tools.length} tool${tools.length === 1 ? '' : 's'}: no instruction-like text, hidden characters, comments or addresses in descriptions and schemas`)
  const listed = findings.slice(0, LISTED).map((f) => `${f.tool} ${f.where}: ${f.what} “${f.excerpt}”`)
  const more = findings.length > LISTED ? `; and ${findings.length - LISTED} more` : ''
  return failed(TOOL_POISONING, `${listed.join('; ')}${more}`, pageListing(probe, findings[0].tool))
}
