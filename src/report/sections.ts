import { verdictOf, type Verdict } from '../aggregate/verdict.js'
import type { ResultsDocument } from '../results/types.js'
import { count } from '../util/words.js'
import { renderRegressions, renderWhatChanged } from './changes.js'
import { appRendersOf, renderStanding } from './app-findings.js'
import { renderApps } from './apps.js'
import { appsBrief, appsDigest } from './apps-digest.js'
import { conformanceDigest, renderConformance } from './conformance.js'
import { escapeMarkdown } from './escape.js'
import type { HtmlLinks } from './html-links.js'
import { evalsV1Digest, renderEvalsV1 } from './evals-v1.js'
import { renderFailures } from './failures.js'
import { renderGate } from './gate-line.js'
import { renderMatrix } from './matrix.js'
import { renderResilience, resilienceBrief, resilienceDigest } from './resilience.js'
import { renderRuns } from './runs.js'
import { renderTelemetry } from './telemetry.js'
import { budgetsBrief, budgetsDigest } from './telemetry-budgets.js'
import { modelsDigest } from './telemetry-models.js'
import { renderToolTests, toolTestsDigest } from './tool-tests.js'
import { usageLine } from './usage.js'

/**
 * The report's sections, one registry: each section says where it stands in a document (failed,
 * passed, skipped, or nothing to show) and declares the forms it has — `full` for the report (and
 * so the job summary, which is the report), `digest` for the sticky comment (what failed open,
 * what passed collapsed or in a line), and `brief` for the comment over GitHub's size limit. The
 * report and the comment list the sections in their own order below; the comment's order is
 * also its degrade-by-detail order.
 */

/** Where a section stands in a document; null: it has nothing to show. */
export type SectionState = 'failed' | 'passed' | 'skipped'

/** What every form reads: the document, its verdict (computed once), and what the renderer decided. */
export interface SectionContext {
  doc: ResultsDocument
  verdict: Verdict
  /** Why the server could not be reached, when that is the story; the renderer decides when to ask. */
  unreachable: string | null
  /** Conformance findings new since the baseline. */
  newIds: ReadonlySet<string>
  /** The sections a report already showed, by name (the runs' heading depends on them). */
  shown: ReadonlySet<string>
  /** The comment's links into the HTML report's anchors, when its artifact was uploaded; null: none. */
  html: HtmlLinks | null
}

export function sectionContext(doc: ResultsDocument, unreachable: string | null, html: HtmlLinks | null = null): SectionContext {
  return { doc, verdict: verdictOf(doc), unreachable, newIds: new Set(doc.changes?.conformance?.new.map((f) => f.id) ?? []), shown: new Set(), html }
}

type Form = (ctx: SectionContext) => string[]

export interface Section {
  state: (ctx: SectionContext) => SectionState | null
  /** Every detail: the report and the job summary. */
  full?: Form
  /** The sticky comment's form. */
  digest?: Form
  /** The comment's form with less detail, taken before any section is left out. */
  brief?: Form
}

const collapsed = (summary: string, lines: string[]) => [`<details><summary>${summary}</summary>`, '', ...lines, '</details>', '']
/** A section that is as good as the evaluation: open when it failed, collapsed when it passed. */
const overall = (ctx: SectionContext): SectionState => (ctx.verdict.passed ? 'passed' : 'failed')
const layer = (verdict: { passed: boolean } | null): SectionState | null => (verdict === null ? null : verdict.passed ? 'passed' : 'failed')
/** The tool tests the comment speaks of: none when the server was unreachable (the headline says it). */
const toolTestsOf = (ctx: SectionContext) => (ctx.unreachable === null ? ctx.doc.tool_tests : null)

/** The sections by the name the comment's fit note gives them ("Left out …: matrix"). */
export const SECTIONS = {
  // One statement: what the server answered, if anything; nothing else ran (they need a server that answers).
  server: {
    state: (ctx) => (ctx.unreachable !== null ? 'failed' : null),
    full: ({ doc, unreachable }) => [
      ...(doc.conformance ? renderConformance(doc.conformance) : ['## Server unreachable', '', `> ${escapeMarkdown(unreachable ?? '')}`, '']),
      `_Not run: ${doc.tool_tests ? 'the tool tests and ' : ''}the behaviour evals; they need a server that answers._`,
      ''
    ],
    digest: ({ doc, html }) => (doc.conformance ? conformanceDigest(doc.conformance, new Set(), html) : [])
  },
  'what changed': {
    state: (ctx) => (ctx.doc.gate && ctx.doc.changes ? overall(ctx) : null),
    full: ({ doc }) => [...renderWhatChanged(doc.gate!, doc.changes!, '##'), ...renderRegressions(doc.changes!, doc.runs)],
    // A passing comment stays short: what changed is one click away, its counts in the summary line.
    digest: (ctx) => {
      const g = ctx.doc.gate!
      return ctx.verdict.passed
        ? collapsed(`What changed since the baseline: ${g.regressed.length} regressed · ${g.fixed.length} fixed · ${g.added.length} new · ${g.removed.length} removed`, renderWhatChanged(g, ctx.doc.changes!).slice(2))
        : renderWhatChanged(g, ctx.doc.changes!)
    }
  },
  gate: {
    state: (ctx) => (ctx.doc.gate ? overall(ctx) : null),
    full: ({ doc }) => renderGate(doc.gate!),
    digest: ({ doc }) => collapsed(`Gate: ${doc.gate!.mode} — ${doc.gate!.passed ? '✓ passed' : '✗ failed'}`, renderGate(doc.gate!))
  },
  // What did not pass: its forms say nothing when nothing failed.
  failures: {
    state: () => 'failed',
    full: ({ doc }) => (doc.runs.length > 0 ? renderFailures(doc, '##', 'the table below') : []),
    digest: ({ doc, html }) => renderFailures(doc, '####', 'the job summary', undefined, html)
  },
  resilience: {
    state: (ctx) => layer(ctx.verdict.resilience),
    full: ({ doc }) => renderResilience(doc),
    digest: ({ doc }) => resilienceDigest(doc),
    brief: ({ doc }) => resilienceBrief(doc)
  },
  // Layer 3: the report's whole section; the comment's budgets, only when one was exceeded or runs never started.
  budgets: {
    state: (ctx) => layer(ctx.verdict.budgets),
    full: ({ doc }) => renderTelemetry(doc),
    digest: ({ doc }) => budgetsDigest(doc),
    brief: ({ doc }) => budgetsBrief(doc)
  },
  'tool tests': {
    state: (ctx) => {
      const tests = toolTestsOf(ctx)
      return tests === null ? null : tests.status === 'skipped' ? 'skipped' : layer(ctx.verdict.toolTests)
    },
    full: ({ doc }) => renderToolTests(doc),
    digest: (ctx) => toolTestsDigest(toolTestsOf(ctx)!, 'the job summary')
  },
  // MCP Apps rendered in a browser: failed when a render did; skipped (no browser) is a notice, never a pass.
  'mcp apps': {
    state: ({ doc, unreachable }) => {
      if (!doc.apps || unreachable !== null) return null
      if (doc.apps.status === 'skipped') return 'skipped'
      return doc.apps.failed > 0 || appRendersOf(doc).some((p) => renderStanding(p.render) === 'failed') ? 'failed' : 'passed'
    },
    full: ({ doc }) => renderApps(doc),
    digest: ({ doc }) => appsDigest(doc),
    brief: ({ doc }) => appsBrief(doc)
  },
  conformance: {
    state: (ctx) => (ctx.unreachable === null ? layer(ctx.verdict.conformance) : null),
    full: ({ doc, newIds }) => renderConformance(doc.conformance!, newIds),
    digest: ({ doc, newIds, html }) => conformanceDigest(doc.conformance!, newIds, html)
  },
  // An evals/v1 suite: what it said beyond its cases and tool tests, and what of it did not run here.
  'evals/v1 suite': {
    state: (ctx) => (ctx.doc.evals_v1 ? overall(ctx) : null),
    full: ({ doc }) => renderEvalsV1(doc),
    digest: ({ doc }) => evalsV1Digest(doc)
  },
  behaviour: {
    state: ({ doc, unreachable }) => (doc.behaviour.status === 'skipped' && doc.fatal_error === null && unreachable === null ? 'skipped' : null),
    full: ({ doc }) => ['## Behaviour evals — skipped', '', `> ${escapeMarkdown(doc.behaviour.reason ?? 'skipped')}`, ''],
    // With tool tests the headline already says why the behaviour runs were skipped.
    digest: ({ doc }) => (doc.tool_tests !== null && doc.tool_tests.status === 'ran' ? [] : [`**Behaviour evals skipped:** ${escapeMarkdown(doc.behaviour.reason ?? '')}`, ''])
  },
  // The report's behaviour runs: the matrix, the table, the usage, the metrics and every run in detail.
  runs: {
    state: (ctx) => (ctx.doc.behaviour.status === 'ran' && ctx.doc.runs.length > 0 ? overall(ctx) : null),
    full: (ctx) => {
      const { doc, verdict, shown } = ctx
      // Their own heading when another layer's section came before them (or failed, though it showed nothing).
      const layers = doc.conformance || doc.tool_tests || shown.has('resilience') || shown.has('budgets') || shown.has('evals/v1 suite') || (verdict.resilience !== null && !verdict.resilience.passed) || !verdict.budgets.passed
      return [...(layers ? ['## Behaviour evals', ''] : []), ...renderRuns(doc)]
    }
  },
  matrix: {
    state: (ctx) => (ctx.doc.groups.length > 0 ? overall(ctx) : null),
    digest: (ctx) => {
      const { groups } = ctx.doc
      const matrix = renderMatrix(groups, ctx.doc.gate, ctx.doc.runs)
      const distinct = (key: (g: (typeof groups)[number]) => string) => new Set(groups.map(key)).size
      const prompts = distinct((g) => g.prompt_name)
      const shape = [count(distinct((g) => g.case_id), 'case'), count(distinct((g) => g.model), 'model'), ...(prompts > 1 ? [count(prompts, 'system prompt')] : [])].join(' × ')
      return ctx.verdict.passed ? collapsed(`Results: ${shape}`, matrix) : ['#### Results', '', ...matrix]
    }
  },
  // The cross-model table: open when a failing evaluation compares models, collapsed when it passed, a line for a single model.
  // It has no briefer form: over the limit the sections that have one shorten first, and it is left out whole if that is not enough.
  models: {
    state: overall,
    digest: ({ doc }) => modelsDigest(doc)
  },
  'regressed runs': {
    state: ({ doc }) => (doc.changes && doc.changes.regressions.length > 0 ? 'failed' : null),
    digest: ({ doc }) => renderRegressions(doc.changes!, doc.runs)
  },
  usage: {
    state: (ctx) => (ctx.doc.runs.length > 0 ? overall(ctx) : null),
    digest: ({ doc }) => collapsed('Tokens, calls and cache', [usageLine(doc), ''])
  }
} satisfies Record<string, Section>

export type SectionName = keyof typeof SECTIONS

/** A place in a renderer's order: the section, the states it is shown in there, and when else it must hold. */
export interface Slot {
  name: SectionName
  states: readonly SectionState[]
  when?: (ctx: SectionContext) => boolean
}

const ANY: readonly SectionState[] = ['failed', 'passed', 'skipped']
const slot = (name: SectionName, states: readonly SectionState[] = ANY, when?: Slot['when']): Slot => ({ name, states, when })

/**
 * The report in the order a reviewer needs it: what did not pass and why, the failing layers
 * beside it; then what changed since the baseline (the baseline's run beside each regressed one,
 * below the reason it fails now) and the gate; the passing layers; then the behaviour runs — or,
 * when they were skipped, why.
 */
export const REPORT_ORDER: readonly Slot[] = [
  slot('failures'),
  // A cell below its floor is a failure of the runs just listed, expanded to the call that crossed
  // the line: right after them. All passing, it is two small tables, with the behaviour runs.
  slot('resilience', ['failed']),
  // An exceeded budget or a run the spend left unstarted is a failure too: beside them.
  slot('budgets', ['failed']),
  // A failing tool test is a failure as certain as a failing run, and cheaper to reproduce.
  slot('tool tests', ['failed']),
  // A view that breaks is the tool test's or the run's failure, shown as the reviewer would see it.
  slot('mcp apps', ['failed']),
  slot('conformance', ['failed']),
  // What changed explains the failures above it; it never comes before them.
  slot('what changed'),
  slot('gate'),
  // Passing (or skipped), the tool tests are a line and a table.
  slot('tool tests', ['passed', 'skipped']),
  slot('conformance', ['passed', 'skipped']),
  slot('mcp apps', ['passed', 'skipped']),
  // What the suite said beyond its cases, the clients and screenshots not run, its gates: before the runs.
  slot('evals/v1 suite'),
  slot('behaviour', ['skipped']),
  slot('resilience', ['passed'], ({ doc }) => doc.behaviour.status === 'ran' && doc.runs.length > 0),
  // Behaviour skipped, the tool tests' calls are measured too.
  slot('budgets', ['passed'], ({ doc }) => doc.behaviour.status === 'skipped' || doc.runs.length > 0),
  slot('runs')
]

/**
 * The sticky comment in the order a reviewer needs it: the verdict (the comment's head), what did
 * not pass and why — failing layers next to the failing runs, before anything else drops — then
 * what changed since the baseline (the metrics that moved; those that did not in a line), the
 * cases × models matrix, and the rest, passing layers last. Over GitHub's limit the comment
 * degrades from the end of this list: the sections that have a brief form take it, the last ones
 * first; then sections are left out whole, the last ones first.
 */
export const COMMENT_ORDER: readonly Slot[] = [
  slot('server'),
  slot('failures'),
  // A cell below its floor (an attack that succeeded, a fault not recovered from) is a failure: next to the failing runs.
  slot('resilience', ['failed']),
  // An exceeded budget, or runs the spend left unstarted, fail the evaluation as surely: beside them too.
  slot('budgets', ['failed']),
  // Failing tool tests are failures as much as failing runs: right after them, before anything else drops.
  slot('tool tests', ['failed']),
  // The worst app finding per tool, beside the tool tests and runs it failed.
  slot('mcp apps', ['failed']),
  slot('conformance', ['failed']),
  slot('what changed'),
  slot('tool tests', ['skipped']),
  // No browser: said early, so nobody reads the comment as the apps having passed.
  slot('mcp apps', ['skipped']),
  slot('behaviour', ['skipped']),
  // One line, only when part of the suite (a client, a screenshot) was not run here.
  slot('evals/v1 suite'),
  slot('matrix'),
  slot('models'),
  slot('resilience', ['passed']),
  // Passing, with its screenshots changed or its warnings in a line each; all quiet, collapsed.
  slot('mcp apps', ['passed']),
  slot('tool tests', ['passed']),
  slot('conformance', ['passed']),
  // Below the reason each fails now (in the failures, and in its block).
  slot('regressed runs'),
  // A failing evaluation's gate and usage, collapsed; a passing one names its gate in the headline.
  slot('gate', ['failed']),
  slot('usage', ['failed'])
]

/** A section as a renderer places it: its name, its lines in the form asked for, and its brief form when it has one. */
export interface PlacedSection {
  name: SectionName
  lines: string[]
  brief?: string[]
}

/**
 * The sections of `order` that stand in one of their slot's states, each in `form` (a section
 * without that form is skipped). The report's forms see which sections came before them.
 */
export function placeSections(order: readonly Slot[], ctx: SectionContext, form: 'full' | 'digest'): PlacedSection[] {
  const shown = new Set<string>(ctx.shown)
  const placed: PlacedSection[] = []
  for (const { name, states, when } of order) {
    const section: Section = SECTIONS[name]
    const render = section[form]
    const state = section.state(ctx)
    if (!render || state === null || !states.includes(state) || (when && !when(ctx))) continue
    const lines = render({ ...ctx, shown })
    if (lines.length > 0) shown.add(name)
    placed.push({ name, lines, ...(form === 'digest' && section.brief ? { brief: section.brief(ctx) } : {}) })
  }
  return placed
}
