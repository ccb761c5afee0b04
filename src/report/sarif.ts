import { sliceChars } from '../util/text.js'
import { EVIDENCE_WORDS } from './resilience.js'
import { createHash } from 'node:crypto'
import type { CheckResult } from '../conformance/types.js'
import { MODERN_VERSION } from '../conformance/types.js'
import type { AppFinding, AttackEvidence, AttackVerdict, ResultsDocument, RunResult, ToolTestResult } from '../results/types.js'
import { appRendersOf, placeWords, type PlacedRender } from './app-findings.js'
import { TOOL_NAME } from '../version.js'

/**
 * SARIF 2.1.0, for `github/codeql-action/upload-sarif`: the conformance findings (failures and
 * warnings, the tool-poisoning scan among them), the tool tests that failed (eval_cases'
 * `tool_tests`, an evals/v1 suite's checks), the attacks that succeeded and the MCP Apps findings
 * (failed, warning, for review: `mcp-apps/<finding id>`), so a repository's
 * code-scanning view shows them. Only the subset GitHub reads is emitted; the types say what.
 */

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json'
const INFORMATION_URI = 'https://github.com/mcp-server-evals/mcp-server-evals'
/** Conformance rules that cite a section (§n) of the revision link to it; the others to the README's table of checks. */
const SPEC_URI = `https://modelcontextprotocol.io/specification/${MODERN_VERSION}`
const CONFORMANCE_HELP = `${INFORMATION_URI}#protocol-conformance-layer-0`
const LAYER2_HELP = `${INFORMATION_URI}#resilience-and-security-layer-2`
const TOOL_TESTS_HELP = `${INFORMATION_URI}/blob/main/docs/tool-tests.md`
/** Our own key beside the one upload-sarif computes from the file (primaryLocationLineHash), which is the same line for every result. */
const FINGERPRINT_KEY = 'mcpServerEvals/v1'
const MESSAGE_CHARS = 4000
const ARGS_CHARS = 1000
const EVIDENCE_SHOWN = 5
const POISONING_CHECK = 'tool-description-poisoning'

export type SarifLevel = 'error' | 'warning' | 'note'

export interface SarifText {
  text: string
}

export interface SarifRule {
  id: string
  shortDescription: SarifText
  fullDescription: SarifText
  help: SarifText
  helpUri: string
  defaultConfiguration: { level: SarifLevel }
  /** `security-severity` (0–10, as a string) makes GitHub rank a `security` rule's alerts. */
  properties: { tags: string[]; precision: 'very-high' | 'high' | 'medium'; 'security-severity'?: string }
}

export interface SarifResult {
  ruleId: string
  ruleIndex: number
  level: SarifLevel
  /** Plain text only: GitHub renders `message.markdown`, which a server's text must never reach. */
  message: SarifText
  locations: {
    physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number } }
  }[]
  partialFingerprints: Record<string, string>
  properties: Record<string, string | number | boolean | null>
}

export interface SarifLog {
  $schema: string
  version: '2.1.0'
  runs: {
    tool: { driver: { name: string; version: string; informationUri: string; rules: SarifRule[] } }
    results: SarifResult[]
  }[]
}

/**
 * The log for one results document: one run, one rule per conformance check or attack that has
 * a result, one result per failing or warning check and per succeeded attack (case × model ×
 * system prompt, over its repeats). Pure; the caller writes it as JSON.
 *
 * Every result is located at line 1 of the eval cases file: code scanning needs a file and a
 * line, and a renderer of the document cannot read the file to find the case's own line.
 */
export function renderSarif(doc: ResultsDocument): SarifLog {
  const location = casesLocation(doc.config?.eval_cases ?? null)
  const rules = new Map<string, SarifRule>()
  const results: SarifResult[] = []
  const add = (rule: SarifRule, result: Omit<SarifResult, 'ruleId' | 'ruleIndex' | 'locations'>) => {
    if (!rules.has(rule.id)) rules.set(rule.id, rule)
    results.push({ ruleId: rule.id, ruleIndex: [...rules.keys()].indexOf(rule.id), ...result, locations: [location] })
  }
  for (const check of doc.conformance?.checks ?? []) {
    // An expected failure (the team's expected-failures file lists it) is still a finding: a note, which does not fail a check run.
    if (check.status !== 'fail' && check.status !== 'warn' && check.status !== 'expected') continue
    add(conformanceRule(check), conformanceResult(check))
  }
  for (const test of doc.tool_tests?.tests ?? []) if (test.status === 'failed') add(toolTestRule(test, doc), toolTestResult(test))
  for (const finding of succeededAttacks(doc.runs)) add(attackRule(finding.attack), attackResult(finding))
  // MCP Apps: each finding that failed, warns or asks for review, under its stable id.
  for (const placed of appRendersOf(doc)) for (const finding of placed.render.findings.filter(sarifWorthy)) add(appRule(finding), appResult(placed, finding))
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [{ tool: { driver: { name: TOOL_NAME, version: plain(doc.tool.version, 100), informationUri: INFORMATION_URI, rules: [...rules.values()] } }, results }]
  }
}

// ——— Text ———

/** Controls, bidi overrides, zero-width and tag characters: whatever could make a message lie about its content. */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/gu

/**
 * Untrusted text as a SARIF plain-text message: no invisible characters, no embedded link (a
 * plain-text message may carry `[text](uri)`, §3.11.6, which viewers render as a link) and no
 * bare URL to click (defanged as `https[:]//host`), cut to `max` characters.
 */
export function plain(text: string, max = MESSAGE_CHARS): string {
  const cleaned = text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(INVISIBLE, '')
    .replace(/\]\s*\(/g, '] (')
    .replace(/:\/\//g, '[:]//')
  if (cleaned.length <= max) return cleaned
  return `${sliceChars(cleaned, 0, max)}… (cut)`
}

/** A rule id from document text: the characters code scanning shows well, nothing else. */
const ruleIdPart = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 100) || 'unknown'

const fingerprint = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32)

/**
 * The eval cases file as an artifact location: relative to %SRCROOT% (the checkout), the way
 * code scanning expects it. The path is the `eval_cases` input, relative to the working
 * directory; an absolute one stays a file URI, and without a configuration the input's name stands in.
 */
function casesLocation(path: string | null): SarifResult['locations'][number] {
  const given = (path ?? 'eval_cases.yaml').replace(/\\/g, '/')
  const absolute = given.startsWith('/') || /^[A-Za-z]:\//.test(given)
  const encoded = given
    .replace(/^(\.\/)+/, '')
    .split('/')
    .map((segment) => (/^[A-Za-z]:$/.test(segment) ? segment : encodeURIComponent(segment)))
    .join('/')
  const artifactLocation = absolute ? { uri: `file://${encoded.startsWith('/') ? '' : '/'}${encoded}` } : { uri: encoded, uriBaseId: '%SRCROOT%' }
  return { physicalLocation: { artifactLocation, region: { startLine: 1 } } }
}

// ——— Conformance ———

const isPoisoning = (check: CheckResult) => check.id === POISONING_CHECK

function conformanceRule(check: CheckResult): SarifRule {
  const spec = plain(check.spec, 1000)
  const level: SarifLevel = check.severity === 'error' ? 'error' : 'warning'
  const poisoning = isPoisoning(check)
  return {
    id: ruleIdPart(check.id),
    shortDescription: { text: poisoning ? 'Tool poisoning: instructions, hidden characters or addresses in tool descriptions and schemas' : `MCP conformance: ${plain(check.id, 100)}` },
    fullDescription: { text: spec },
    help: {
      text: poisoning
        ? `${spec}. A static scan of what the server lists (no model): the model reads tool descriptions and schemas as trusted text. The job summary quotes each finding.`
        : `The rule (MCP ${MODERN_VERSION}): ${spec}. The job summary has the request and the response that show the finding.`
    },
    helpUri: poisoning ? LAYER2_HELP : /§\s*\d/.test(check.spec) ? SPEC_URI : CONFORMANCE_HELP,
    defaultConfiguration: { level },
    properties: poisoning
      ? { tags: ['mcp', 'security', 'tool-poisoning'], precision: 'medium', 'security-severity': '6.0' }
      : { tags: ['mcp', 'conformance', check.severity === 'error' ? 'correctness' : 'maintainability'], precision: 'very-high' }
  }
}

function conformanceResult(check: CheckResult): Omit<SarifResult, 'ruleId' | 'ruleIndex' | 'locations'> {
  const evidence = check.evidence ? `\n\nRequest: ${check.evidence.request}\nResponse: ${check.evidence.response}` : ''
  return {
    level: check.status === 'expected' ? 'note' : check.status === 'fail' && check.severity === 'error' ? 'error' : 'warning',
    message: { text: plain(`${check.status === 'expected' ? `Expected failure (listed as ${check.expected_entry ?? check.id}): ` : ''}${check.message}${evidence}`) },
    // A check is one finding per server: its id is its identity across runs.
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprint('conformance', check.id) },
    properties: { check: plain(check.id, 100), status: check.status, severity: check.severity }
  }
}

// ——— Tool tests ———

const toolTestRuleId = (test: ToolTestResult) => `tool-test/${ruleIdPart(test.id)}`

function toolTestRule(test: ToolTestResult, doc: ResultsDocument): SarifRule {
  const id = plain(test.id, 200)
  const what = doc.evals_v1 ? 'evals/v1 check' : 'tool test'
  return {
    id: toolTestRuleId(test),
    shortDescription: { text: `Tool test ${id} failed` },
    fullDescription: { text: `The ${what} ${id}: direct calls of the server with assertions on the answers, no model.` },
    help: { text: 'A deterministic test of the server failed: a call answered differently from what the suite expects. The job summary shows each step with its arguments, the answer and every assertion.' },
    helpUri: TOOL_TESTS_HELP,
    defaultConfiguration: { level: 'error' },
    properties: { tags: ['mcp', 'tool-test', 'correctness'], precision: 'very-high' }
  }
}

/** The first failed attempt's failing step: its call and the assertions that failed, in words. */
function toolTestResult(test: ToolTestResult): Omit<SarifResult, 'ruleId' | 'ruleIndex' | 'locations'> {
  const attempt = test.attempts.find((a) => a.status === 'failed')
  const step = attempt?.steps.find((s) => !s.passed)
  const failed = (step?.checks ?? []).filter((c) => !c.passed)
  const attempts = test.runs > 1 ? ` (attempt ${attempt?.attempt ?? '?'} of ${test.runs})` : ''
  const lines = [
    `Tool test ${test.id} failed${attempts}${step ? `: step ${step.index}, ${step.tool} ${JSON.stringify(step.args) ?? ''}` : ''}.`,
    ...failed.slice(0, EVIDENCE_SHOWN).map((c) => `${c.check}${c.path ? ` ${c.path}` : ''}: ${c.reason}`),
    ...(failed.length > EVIDENCE_SHOWN ? [`(${failed.length - EVIDENCE_SHOWN} more in the job summary.)`] : [])
  ]
  return {
    level: 'error',
    message: { text: plain(lines.join('\n')) },
    // A test's id is its identity across runs.
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprint('tool-test', test.id) },
    properties: { test: plain(test.id, 200), tool: plain(step?.tool ?? '', 200), failed_checks: failed.length }
  }
}

// ——— Attacks ———

interface AttackFinding {
  attack: AttackVerdict
  /** The first run in which it succeeded: its evidence is the message. */
  run: RunResult
  succeeded: number
  delivered: number
}

const attackRuleId = (attack: AttackVerdict) => (attack.attack === 'tool_output' ? `attack/${ruleIdPart(attack.payload)}` : `attack/${ruleIdPart(attack.payload)}/${ruleIdPart(attack.attack)}`)

/** Succeeded attacks, one per rule × case × model × system prompt, counted over that group's repeats. */
function succeededAttacks(runs: RunResult[]): AttackFinding[] {
  const byKey = new Map<string, AttackFinding>()
  for (const run of runs) {
    if (run.status === 'cancelled') continue
    for (const attack of run.security?.attacks ?? []) {
      if (!attack.delivered) continue
      const key = JSON.stringify([attackRuleId(attack), run.case_id, run.model, run.prompt_name])
      const finding = byKey.get(key)
      const succeeded = attack.resisted ? 0 : 1
      if (finding) {
        finding.delivered++
        finding.succeeded += succeeded
        if (finding.attack.resisted && !attack.resisted) Object.assign(finding, { attack, run })
      } else byKey.set(key, { attack, run, succeeded, delivered: 1 })
    }
  }
  return [...byKey.values()].filter((f) => f.succeeded > 0)
}

const VECTOR_WORDS: Record<AttackVerdict['attack'], string> = {
  tool_output: 'planted in the output of',
  poison_description: 'planted in the description of',
  shadow_tool: 'offered as a decoy of',
  rug_pull: 'planted as a changed description of'
}

function attackRule(attack: AttackVerdict): SarifRule {
  const payload = plain(attack.payload, 100)
  const how = attack.attack === 'tool_output' ? 'in a tool result' : `by ${plain(attack.attack, 40).replace(/_/g, ' ')}`
  return {
    id: attackRuleId(attack),
    shortDescription: { text: `The model acted on the ${payload} payload planted ${how}` },
    fullDescription: {
      text: `An instruction planted ${how} (payload ${payload}) was obeyed: after it reached the model, a tool call or the answer did what the payload asked (a deterministic oracle on the transcript: canary, attacker address or host, arguments outside allowed_args, a forbidden or decoy tool, a link to the attacker).`
    },
    help: { text: 'The agent obeyed instructions that arrived as data. Treat tool output as untrusted: keep instructions out of tool results, or constrain what the agent may do after reading them (allowed arguments, no outbound tools). The job summary shows the call that crossed the line.' },
    helpUri: LAYER2_HELP,
    defaultConfiguration: { level: 'error' },
    properties: { tags: ['mcp', 'security', 'prompt-injection', ruleIdPart(attack.attack)], precision: 'high', 'security-severity': '8.0' }
  }
}

function attackResult({ attack, run, succeeded, delivered }: AttackFinding): Omit<SarifResult, 'ruleId' | 'ruleIndex' | 'locations'> {
  const where = `${VECTOR_WORDS[attack.attack] ?? `planted via ${attack.attack} on`} ${attack.tool}`
  const at = (e: AttackEvidence) => (e.tool_call_index === null ? 'The answer' : `Tool call ${e.tool_call_index + 1} (${e.tool ?? run.tool_calls[e.tool_call_index]?.name ?? '?'})`)
  const crossed = attack.evidence.slice(0, EVIDENCE_SHOWN).map((e) => `${at(e)} crossed the line: ${EVIDENCE_WORDS[e.kind] ?? e.kind}: ${e.detail}`)
  if (attack.evidence.length > EVIDENCE_SHOWN) crossed.push(`(${attack.evidence.length - EVIDENCE_SHOWN} more in the job summary.)`)
  // The whole arguments of the first call that crossed it: what a reviewer would look for first.
  const index = attack.evidence.map((e) => e.tool_call_index).find((i): i is number => i !== null)
  const call = index === undefined ? undefined : run.tool_calls[index]
  const args = call && index !== undefined ? [`Arguments of tool call ${index + 1}: ${plain(JSON.stringify(call.args) ?? '', ARGS_CHARS)}`] : []
  const runs = delivered > 1 ? ` in ${succeeded} of ${delivered} runs` : ''
  const text = [`Attack ${attack.payload} (${where}) succeeded${runs}: case ${run.case_id}, model ${run.model}, system prompt ${run.prompt_name}.`, ...(crossed.length ? crossed : ['The oracle recorded no evidence.']), ...args].join('\n')
  return {
    level: 'error',
    message: { text: plain(text) },
    // Stable per rule, case, model and system prompt: the same attack on the same target is one alert across runs.
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprint(attackRuleId(attack), run.case_id, run.model, run.prompt_name) },
    properties: {
      case: plain(run.case_id, 200),
      model: plain(run.model, 200),
      prompt: plain(run.prompt_name, 200),
      payload: plain(attack.payload, 100),
      attack: plain(attack.attack, 40),
      tool: plain(attack.tool, 200),
      succeeded,
      delivered
    }
  }
}

// ——— MCP Apps ———

const APPS_HELP = `${INFORMATION_URI}#mcp-apps`

const APP_RULE_WORDS: Record<AppFinding['id'], string> = {
  'app-initializes': 'The MCP App view completes ui/initialize',
  'app-no-errors': 'The MCP App view throws no uncaught error and logs no console.error',
  'app-csp-respected': 'The MCP App view makes no request its Content-Security-Policy blocks',
  'app-renders': 'The MCP App view is not blank',
  'app-tool-calls': 'Every tools/call of the MCP App view is to a tool visible to the app and succeeds',
  'app-csp-declared': 'The MCP App resource declares _meta.ui.csp',
  'app-visual-change': "The MCP App view's screenshot matches the baseline's"
}

const sarifWorthy = (f: AppFinding) => f.status === 'failed' || f.status === 'warning' || f.status === 'review'

function appRule(finding: AppFinding): SarifRule {
  const words = APP_RULE_WORDS[finding.id] ?? `MCP Apps finding ${plain(finding.id, 100)}`
  return {
    id: `mcp-apps/${ruleIdPart(finding.id)}`,
    shortDescription: { text: words },
    fullDescription: { text: `${words}: checked by rendering the view in a headless browser as a conforming MCP Apps host does.` },
    help: { text: 'The job summary shows the render: its screenshot (in the artifact), the findings with their evidence, the view\'s tool calls, blocked requests and console errors.' },
    helpUri: APPS_HELP,
    defaultConfiguration: { level: finding.id === 'app-csp-declared' ? 'warning' : finding.id === 'app-visual-change' ? 'note' : 'error' },
    properties: { tags: ['mcp', 'mcp-apps', finding.id === 'app-csp-respected' || finding.id === 'app-csp-declared' ? 'security' : 'correctness'], precision: 'very-high' }
  }
}

function appResult({ render, place }: PlacedRender, finding: AppFinding): Omit<SarifResult, 'ruleId' | 'ruleIndex' | 'locations'> {
  const evidence = finding.evidence.slice(0, EVIDENCE_SHOWN)
  const lines = [`${finding.id} (${finding.status}) in the view of ${render.tool} (${render.resource_uri}), ${placeWords(place)}: ${finding.message}`, ...evidence, ...(finding.evidence.length > EVIDENCE_SHOWN ? [`(${finding.evidence.length - EVIDENCE_SHOWN} more in the job summary.)`] : [])]
  return {
    level: finding.status === 'failed' ? 'error' : finding.status === 'warning' ? 'warning' : 'note',
    message: { text: plain(lines.join('\n')) },
    // A render's id is stable across runs of the suite: the same finding on the same view is one alert.
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprint('mcp-apps', finding.id, render.id) },
    properties: { render: plain(render.id, 200), tool: plain(render.tool, 200), resource: plain(render.resource_uri, 200), status: finding.status }
  }
}
