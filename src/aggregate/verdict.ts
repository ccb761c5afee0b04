import type {
  BudgetCheck,
  ConformanceSection,
  GateResult,
  GroupResult,
  ResilienceSummary,
  ResultsDocument,
  RunResult,
  TelemetrySection,
  ToolTestResult,
  ToolTestsSection
} from '../results/types.js'
import { budgetReasons } from '../telemetry/budgets.js'
import { resilienceReasons } from './resilience.js'

/**
 * The verdict, computed in one place: whether each layer passed and why, and whether the whole
 * evaluation did. The assembler and the gate decide `passed` with it; every renderer (report,
 * comment, job summary, JUnit, SARIF, badge, log lines) reads it instead of deciding again.
 */

// ——— Tool tests ———

/** A tool test passed when it says so twice: its status and pass^k (a saved document is not ours to trust). */
export function toolTestPassed(test: ToolTestResult): boolean {
  return test.status === 'passed' && test.passed
}

/** True when the tool tests ran and every one of them passed. */
export function toolTestsPassed(section: ToolTestsSection): boolean {
  return section.status === 'ran' && section.failed === 0 && section.errored === 0 && section.cancelled === 0 && section.passed === section.total
}

// ——— Layer 2 ———

/** Every cell reached its floor, every planned fault fired and every planned attack was delivered; true without Layer 2. */
export function resiliencePassed(summary: ResilienceSummary | null | undefined): boolean {
  return !summary || summary.by_model.every((m) => [...m.faults, ...m.attacks].every((c) => c.success))
}

// ——— Layer 3 ———

/** Every budget checked: the absolute ones, then the trends against the baseline. */
export function budgetChecks(doc: ResultsDocument): { absolute: BudgetCheck[]; trends: BudgetCheck[] } {
  return { absolute: doc.telemetry?.budgets ?? [], trends: doc.gate?.trends ?? [] }
}

/** The budgets that failed, absolute and trends. */
export function failedBudgets(doc: ResultsDocument): BudgetCheck[] {
  const { absolute, trends } = budgetChecks(doc)
  return [...absolute, ...trends].filter((c) => !c.passed)
}

/** The runs that never started because the spend reached max_cost_usd. */
export function skippedRuns(doc: ResultsDocument): RunResult[] {
  return doc.runs.filter((r) => r.status === 'skipped')
}

/** Every budget held and no run was skipped (nothing to say against Layer 3). */
export function telemetryPassed(doc: ResultsDocument): boolean {
  return failedBudgets(doc).length === 0 && skippedRuns(doc).length === 0
}

// ——— The whole evaluation ———

/**
 * The verdict of the layers that need no model: conformance passed (or did not run), every tool
 * test passed, and the server could be reached at all — a server nobody could reach fails the
 * evaluation whatever conformance_fail_on says, since nothing was evaluated. The behaviour gate
 * (floors or deltas) is the rest of the verdict.
 */
export function freeLayersPassed(doc: Pick<ResultsDocument, 'conformance' | 'tool_tests'>): boolean {
  const toolTestsPassed = doc.tool_tests === null || doc.tool_tests.tests.every((t) => t.passed)
  return (doc.conformance?.passed ?? true) && doc.conformance?.era !== 'unreachable' && toolTestsPassed
}

/** What the assembler decides `passed` from, before any gate (it needs the baseline). */
export interface AssembledVerdictInputs {
  /** Not cancelled, and no planned run missing from the journal. */
  complete: boolean
  /** A shard sees part of the suite: it says only whether it ran completely; the merge gives the verdict. */
  sharded: boolean
  groups: GroupResult[]
  resilience: ResilienceSummary | null
  telemetry: TelemetrySection | null
  conformance: ConformanceSection | null
  tool_tests: ToolTestsSection | null
}

/**
 * A document's `passed` as assembled: a cancelled or incomplete evaluation never passes, nor does
 * one over a Layer 3 budget (or whose runs the budget stopped); a shard passes when complete.
 */
export function assembledPassed(v: AssembledVerdictInputs): boolean {
  return (
    v.complete &&
    (v.sharded ||
      (v.groups.every((g) => g.success) &&
        resilienceReasons(v.resilience).length === 0 &&
        budgetReasons(v.telemetry).length === 0 &&
        freeLayersPassed({ conformance: v.conformance, tool_tests: v.tool_tests })))
  )
}

/** A gated document's `passed`: the gate (floors, deltas, Layer 2 floors, budgets) and the free layers. */
export function gatedPassed(doc: Pick<ResultsDocument, 'conformance' | 'tool_tests'>, gate: GateResult): boolean {
  return gate.passed && freeLayersPassed(doc)
}

/**
 * Every layer's verdict of a document and why, as data (the renderers word it), and the whole
 * evaluation's (`passed`, as the document says).
 */
export interface Verdict {
  passed: boolean
  /** The behaviour gate, when one was applied: its reasons are the floors, deltas, Layer 2 floors and budgets it failed on. */
  gate: { passed: boolean; reasons: string[] } | null
  /** Protocol conformance, when it ran; a server nobody could reach fails it whatever conformance_fail_on says. */
  conformance: { passed: boolean; unreachable: boolean } | null
  /** The tool tests, when the suite has any: passed only when they ran and every one passed. */
  toolTests: { passed: boolean; ran: boolean; notPassing: ToolTestResult[] } | null
  /** Layer 2, when a case injects faults or plants attacks: the cells below their floor, in words. */
  resilience: { passed: boolean; reasons: string[] } | null
  /** Layer 3: every budget held (the trends included) and the spend left no run unstarted. */
  budgets: { passed: boolean; failed: BudgetCheck[]; skipped: RunResult[] }
}

/** The verdict of each layer of a document, read once by every renderer. */
export function verdictOf(doc: ResultsDocument): Verdict {
  const tests = doc.tool_tests
  const resilience = doc.summary.resilience ?? null
  const failed = failedBudgets(doc)
  const skipped = skippedRuns(doc)
  return {
    passed: doc.passed,
    gate: doc.gate ? { passed: doc.gate.passed, reasons: doc.gate.reasons } : null,
    conformance: doc.conformance ? { passed: doc.conformance.passed, unreachable: doc.conformance.era === 'unreachable' } : null,
    toolTests: tests ? { passed: toolTestsPassed(tests), ran: tests.status === 'ran', notPassing: tests.tests.filter((t) => !toolTestPassed(t)) } : null,
    resilience: resilience ? { passed: resiliencePassed(resilience), reasons: resilienceReasons(resilience) } : null,
    budgets: { passed: failed.length === 0 && skipped.length === 0, failed, skipped }
  }
}
