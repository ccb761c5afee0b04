import { significant } from '../util/text.js'
import { evalsV1Figures, type EvalsV1Figures } from '../aggregate/evals-v1-metrics.js'
import type { EvalsV1Client, EvalsV1NotRun, EvalsV1Section, ResultsDocument } from '../results/types.js'
import { count } from '../util/words.js'
import { blockquote, codeSpan, escapeMarkdown } from './escape.js'

/**
 * An evals/v1 suite's section: its name and intent, the clients that ran and those that did not
 * (with why), the parts not run here (widget and judge screenshots), and its gates with the
 * figures they were checked against. Every name and text comes from the suite, so every one is
 * escaped; never a table (a `|` in a name would split a cell).
 */

/** How many clients and parts not run the comment's line names before "and N more". */
const NAMED_IN_COMMENT = 3

const WHAT: Record<EvalsV1NotRun['what'], [string, string]> = {
  client: ['client', 'clients'],
  widget_screenshot: ['widget screenshot', 'widget screenshots'],
  judge_screenshot: ['judge screenshot', 'judge screenshots']
}

/** The gates as written, each with its budget and the figure it was checked against; with @mcp-use/evals' names. */
function gateLines(section: EvalsV1Section, doc: ResultsDocument, figures: EvalsV1Figures): string[] {
  const checks = doc.telemetry?.budgets ?? []
  const gates: [string, number | null, string, number, string][] = [
    ['toolErrorRateMax', section.gates.toolErrorRateMax, 'max_tool_error_rate', figures.toolErrorRate, `tool error rate ${significant(figures.toolErrorRate)} (${count(figures.errors, 'error')} in ${count(figures.runs, 'run')})`],
    ['agentStepsP95Max', section.gates.agentStepsP95Max, 'max_agent_steps_p95', figures.agentStepsP95, `agent steps p95 ${figures.agentStepsP95}`],
    ['tokensPerSuccessP95Max', section.gates.tokensPerSuccessP95Max, 'max_tokens_per_success_p95', figures.tokensPerSuccessP95, `tokens per success p95 ${figures.tokensPerSuccessP95} (over ${count(figures.passed, 'run')} that passed)`]
  ]
  const set = gates.filter(([, limit]) => limit !== null)
  if (set.length === 0) return ['_No gate set (`metrics.gates`)._', '']
  return [
    ...set.map(([name, limit, budget, , figure]) => {
      const check = checks.find((c) => c.budget === budget)
      const mark = check ? (check.passed ? '✅' : '❌') : '·'
      return `- ${mark} ${codeSpan(`${name}: ${limit}`)} (the budget ${codeSpan(budget)}): ${figure}${check ? '' : ' — not checked'}`
    }),
    ''
  ]
}


function clientLine(client: EvalsV1Client): string {
  const models = client.models.length ? client.models.map((m) => escapeMarkdown(m)).join(', ') : 'the default model'
  const head = `${escapeMarkdown(client.target)} in flow ${escapeMarkdown(client.flow)}`
  return client.run ? `- ✅ ${head}: ${models}` : `- ⏭ ${head}, not run: ${escapeMarkdown(client.reason ?? 'not run here')}`
}

/** The report's section. */
export function renderEvalsV1(doc: ResultsDocument): string[] {
  const section = doc.evals_v1
  if (!section) return []
  const figures = evalsV1Figures(doc.runs)
  const out = [`## evals/v1 suite ${escapeMarkdown(section.name)}`, '']
  if (section.intent) out.push(blockquote(section.intent), '')
  const flows = section.flows.map((f) => `${escapeMarkdown(f.id)} (${count(f.checks.length, 'check')}, ${count(f.scenarios.length, 'scenario')})`)
  out.push(`${section.flows.length === 1 ? 'Flow' : 'Flows'} ${flows.join(', ')}: the checks ran as tool tests, the scenarios as conversation cases. Context ${codeSpan(section.context)} (what \`runOn\` was matched against).`, '')
  out.push('**Clients**', '', ...section.clients.map(clientLine), '')
  const parts = section.not_run.filter((n) => n.what !== 'client')
  if (parts.length > 0) out.push('**Not run here**', '', ...parts.map((n) => `- ${WHAT[n.what][0]} at ${codeSpan(n.where)}: ${escapeMarkdown(n.reason)}`), '')
  out.push('**Gates** (`metrics.gates`, checked as budgets)', '', ...gateLines(section, doc, figures))
  const recorded = [
    section.fail_on.length ? `\`ci.failOn\` ${section.fail_on.map((f) => escapeMarkdown(f)).join(', ')} (recorded: the gate decides)` : '',
    section.parallel_cases === null ? '' : `\`ci.parallelCases\` ${section.parallel_cases}`
  ].filter(Boolean)
  if (recorded.length) out.push(`_${recorded.join(' · ')}._`, '')
  return out
}

/** What was not run, counted ("1 client (chatgpt: …), 2 widget screenshots"); empty when everything ran. */
function notRunWords(section: EvalsV1Section): string[] {
  const words: string[] = []
  const clients = section.clients.filter((c) => !c.run)
  if (clients.length > 0) {
    const named = clients.slice(0, NAMED_IN_COMMENT).map((c) => `${escapeMarkdown(c.target)}: ${escapeMarkdown(c.reason ?? 'not run here')}`)
    const more = clients.length > NAMED_IN_COMMENT ? `, and ${clients.length - NAMED_IN_COMMENT} more` : ''
    words.push(`${count(clients.length, 'client')} (${named.join('; ')}${more})`)
  }
  for (const what of ['widget_screenshot', 'judge_screenshot'] as const) {
    const n = section.not_run.filter((p) => p.what === what).length
    if (n > 0) words.push(`${n} ${WHAT[what][n === 1 ? 0 : 1]}`)
  }
  return words
}

/** The comment's form: one line when something of the suite was not run here, else nothing (the gates are in the budgets). */
export function evalsV1Digest(doc: ResultsDocument): string[] {
  const section = doc.evals_v1
  if (!section) return []
  const words = notRunWords(section)
  if (words.length === 0) return []
  return [`**evals/v1 suite ${escapeMarkdown(section.name)}** — not run here: ${words.join(', ')}; see the job summary.`, '']
}
