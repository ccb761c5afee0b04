import { noResilience } from '../config/resilience.js'
import { closeSync, fsyncSync, readSync, writeSync } from 'node:fs'
import { assembleDocument } from '../aggregate/document.js'
import type { AppsOpened, AppsSectionSettings } from '../apps/section.js'
import type { EvalCase } from '../config/types.js'
import { runKey } from '../plan/expand.js'
import type { CacheStats } from '../llm/cache.js'
import { emptyUsage, type TokenUsage } from '../llm/chat.js'
import type { BehaviourStatus, Cancellation, ConformanceSection, EvalsV1Section, ResultsConfig, ResultsDocument, RunResult, ShardPlan, ToolTestResult, ToolTestsPlan, ToolTestsSection } from '../results/types.js'
import { upgradeConfig, upgradeRun } from '../results/upgrade.js'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { isObject } from '../util/objects.js'
import { redactDeep } from '../util/redact.js'
import { count, someOf } from '../util/words.js'
import { openFileReplacing } from '../util/write-file.js'
import { shapeProblem } from './record-shapes.js'

export const JOURNAL_VERSION = 1

/** How the gate is to be applied when a document is rebuilt from the journal. */
export interface JournalGate {
  mode: 'delta' | 'absolute' | 'both' | null
  max_drop: number
  baseline: string
}

/**
 * The run journal, one JSON object a line: a header (what was planned and how to judge it), the
 * conformance section, every run the moment it is finished, and an end line. Each line is
 * flushed to disk before the next step, so a crash (SIGKILL, out of memory) loses only the runs
 * in flight; the results document is a pure function of these records.
 */
export type JournalRecord =
  | {
      type: 'header'
      version: typeof JOURNAL_VERSION
      /** Which suite this is: a resumed attempt must have the same. */
      suite_hash: string
      started_at: string
      planned: number
      /** Runs taken from an earlier attempt (they follow the header). */
      reused: number
      config: ResultsConfig
      cases: EvalCase[]
      behaviour: BehaviourStatus
      gate: JournalGate
      /** The tool tests planned; null (or absent, in a journal from before tool tests) when the suite has none. */
      tool_tests?: ToolTestsPlan | null
      /** Set when this evaluation is one shard of a suite (`planned` is then this shard's runs); absent otherwise. */
      shard?: ShardPlan
      /** An evals/v1 suite's own section, for the document (a resumed run, `report --from`, the merge); absent for an eval_cases suite. */
      evals_v1?: EvalsV1Section | null
      /** MCP Apps: set when the suite asks for any render (the document then has its `apps` section); absent otherwise. */
      apps?: AppsSectionSettings | null
    }
  | { type: 'conformance'; section: ConformanceSection }
  | { type: 'run'; run: RunResult }
  | { type: 'tool_test'; test: ToolTestResult }
  /** MCP Apps: how the browser host's opening went (on the first render); none when nothing reached a render. */
  | ({ type: 'apps' } & AppsOpened)
  /** A layer the header planned that did not run after all (the server could not be reached). */
  | { type: 'skipped'; layer: 'behaviour' | 'tool_tests'; reason: string }
  | { type: 'end'; duration_s: number; overhead: TokenUsage; cache: CacheStats | null; cancelled: Cancellation | null }

export type JournalHeader = Extract<JournalRecord, { type: 'header' }>

export type { ToolTestsPlan }
type JournalEnd = Extract<JournalRecord, { type: 'end' }>

/** A journal as read back: the last record of each run wins. */
export interface JournalState {
  path: string
  header: JournalHeader
  conformance: ConformanceSection | null
  runs: Map<string, RunResult>
  toolTests: Map<string, ToolTestResult>
  /** Layers skipped after the header was written, and why. */
  skipped: { behaviour?: string; tool_tests?: string }
  /** How the browser host's opening went; null when it was never opened. */
  apps: AppsOpened | null
  end: JournalEnd | null
}

/**
 * Appends records to a journal, redacted and flushed, and keeps the same records in `state` — but
 * for the finished runs, while the file holds them: a run written to the file is only in the file
 * (where its line is, by runKey), so the harness's memory grows with the runs in flight, not with
 * the plan. close() reads them back into `state`, for the document. A run the file could not take
 * (no file, or a disk that failed) stays in memory.
 */
export class JournalWriter {
  private fd: number | null
  /** Bytes in the file: where the next line starts. */
  private size = 0
  /** Each run the file holds, by runKey: its line's offset and length (the last line of each run wins). */
  private readonly onDisk = new Map<string, { at: number; bytes: number }>()
  private readonly held: JournalState

  /**
   * Start a journal at `path` (null: in memory only) with its header and the runs reused from an earlier attempt,
   * written to a temporary file and renamed over the old journal, so the old one is never
   * half-replaced.
   */
  constructor(
    path: string | null,
    header: JournalHeader,
    reused: RunResult[],
    private readonly secrets: readonly string[],
    private readonly onWriteError: (message: string) => void = () => undefined
  ) {
    const records: JournalRecord[] = [{ ...header, reused: reused.length }, ...reused.map((run) => ({ type: 'run' as const, run }))]
    const safe = records.map((r) => redactDeep(r, secrets))
    const lines = safe.map((r) => `${JSON.stringify(r)}\n`)
    this.fd = null
    if (path) {
      // A new file renamed over the path (a symlink planted there is replaced, not followed), then appended to.
      this.fd = openFileReplacing(path, lines.join(''))
    }
    this.held = emptyState(path ?? '', safe[0] as JournalHeader)
    if (this.fd !== null) this.size = Buffer.byteLength(lines[0]!)
    safe.slice(1).forEach((r, i) => this.remember(r, this.fd !== null ? Buffer.byteLength(lines[i + 1]!) : null))
  }

  /** Never throws: a disk that fails mid-run (full, gone) costs the journal, not the evaluation. */
  append(record: JournalRecord): void {
    const safe = redactDeep(record, this.secrets)
    let written: number | null = null
    if (this.fd !== null) {
      const line = `${JSON.stringify(safe)}\n`
      try {
        const bytes = Buffer.byteLength(line)
        if (writeSync(this.fd, line) !== bytes) throw new Error('a short write')
        fsyncSync(this.fd)
        written = bytes
      } catch (error) {
        this.close()
        this.onWriteError(`Cannot append to the run journal ${this.held.path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): it stops here; the results are still written.`)
      }
    }
    this.remember(safe, written)
  }

  /** Every record, the runs the file holds read back first (into memory from then on: ask at the end, for the document). */
  get state(): JournalState {
    if (this.fd !== null) this.readBack(this.fd)
    return this.held
  }

  /** No more appends; the runs the file holds are read back into `state` (idempotent). */
  close(): void {
    const fd = this.fd
    if (fd === null) return
    this.readBack(fd)
    this.fd = null
    try {
      closeSync(fd)
    } catch {
      // Already reported by append, or nothing left to lose.
    }
  }

  /** The runs only the file holds, into `state`: a later run of the same key kept in memory (after a failed write) wins. */
  private readBack(fd: number): void {
    const lost: string[] = []
    for (const [key, { at, bytes }] of this.onDisk) {
      if (this.held.runs.has(key)) continue
      try {
        const line = Buffer.alloc(bytes)
        for (let got = 0; got < bytes; ) {
          const n = readSync(fd, line, got, bytes - got, at + got)
          if (n === 0) throw new Error('the file is shorter than what was written to it')
          got += n
        }
        const record = JSON.parse(line.toString('utf8')) as JournalRecord
        if (record.type !== 'run') throw new Error('another record where a run was written')
        applyRecord(this.held, record)
      } catch (error) {
        lost.push(`${key} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
      }
    }
    this.onDisk.clear()
    // Missing from the document, so it cannot pass (journal.missing counts them); said once.
    if (lost.length > 0) this.onWriteError(`Cannot read ${count(lost.length, 'finished run')} back from the run journal ${this.held.path}: ${someOf(lost, 3, '; ')}; the results count them as missing.`)
  }

  /** A record into `state`; a run the file took (`written` bytes at the end of it), only where it is. */
  private remember(record: JournalRecord, written: number | null): void {
    if (written !== null) {
      const at = this.size
      this.size += written
      if (record.type === 'run') {
        const key = runKey(record.run)
        this.onDisk.set(key, { at, bytes: written })
        // A run kept in memory before is superseded by this later line.
        this.held.runs.delete(key)
        return
      }
    }
    applyRecord(this.held, record)
  }
}

/** A journal on disk; where it cannot be written, one warning and a journal in memory only. */
export function openJournal(path: string, header: JournalHeader, reused: RunResult[], secrets: readonly string[], warn: (message: string) => void): JournalWriter {
  try {
    return new JournalWriter(path, header, reused, secrets, warn)
  } catch (error) {
    warn(`Cannot write the run journal ${path} (${(error as Error).message}): a crash would lose the finished runs.`)
    return new JournalWriter(null, header, reused, secrets)
  }
}

function emptyState(path: string, header: JournalHeader): JournalState {
  return { path, header, conformance: null, runs: new Map(), toolTests: new Map(), skipped: {}, apps: null, end: null }
}

function applyRecord(state: JournalState, record: JournalRecord): void {
  // A run journaled before `observed`, Layer 2 or Layer 3 existed (a resume across an upgrade) observed nothing, had no oracles and no trace.
  if (record.type === 'run') state.runs.set(runKey(record.run), upgradeRun(record.run))
  else if (record.type === 'tool_test') state.toolTests.set(record.test.id, record.test)
  else if (record.type === 'skipped') state.skipped[record.layer] = record.reason
  else if (record.type === 'conformance') state.conformance = record.section
  else if (record.type === 'apps') state.apps = { status: record.status, reason: record.reason, browser: record.browser }
  else if (record.type === 'end') state.end = record
}

/** Why a journal could not be read at all. */
export class JournalError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'JournalError'
  }
}

/** A journal line that was skipped: its number (1-based) and why. */
export interface SkippedLine {
  line: number
  why: string
}

/**
 * Read a journal back (a regular file, at most FileLimits.journal). Lines that are not records of
 * the right shape — a line cut short by a crash, damage, a field of the wrong type — are skipped
 * and listed with their line number and the first field that is wrong, never fatal; a file
 * without a header is a JournalError.
 */
export function readJournal(path: string): { state: JournalState; skipped: number; lines: SkippedLine[] } {
  let text: string
  try {
    text = readBoundedFile(path, FileLimits.journal)
  } catch (error) {
    throw new JournalError(`cannot read the run journal ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  let state: JournalState | null = null
  const lines: SkippedLine[] = []
  let headerProblem: string | null = null
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    const parsed = parseRecord(line)
    if (typeof parsed === 'string') {
      lines.push({ line: i + 1, why: parsed })
      if (parsed.startsWith('header') && !state) headerProblem ??= `line ${i + 1}: ${parsed}`
    } else if (parsed.type === 'header') {
      if (state) lines.push({ line: i + 1, why: 'a second header' })
      else state = emptyState(path, parsed)
    } else if (state) applyRecord(state, parsed)
    else lines.push({ line: i + 1, why: 'a record before the header' })
  })
  if (!state) throw new JournalError(`${path} is not a run journal of version ${JOURNAL_VERSION}: it has no ${headerProblem ? `readable header line (${headerProblem})` : 'header line'}`)
  return { state, skipped: lines.length, lines }
}

/** "line 3: run.final_output is a number, not string or null; line 7: not JSON (cut short?)", the first few. */
export function describeSkippedLines(lines: readonly SkippedLine[], max = 3): string {
  return someOf(
    lines.map((l) => `line ${l.line}: ${l.why}`),
    max,
    '; '
  )
}

/** A journal record, or why the line is not one. */
function parseRecord(line: string): JournalRecord | string {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return 'not JSON (cut short by a crash?)'
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object'
  const record = value as Partial<JournalRecord> & Record<string, unknown>
  const problem = recordProblem(record)
  return problem ?? (record as JournalRecord)
}

function recordProblem(record: Record<string, unknown>): string | null {
  switch (record.type) {
    case 'header': {
      if (record.version !== JOURNAL_VERSION) return `header of journal version ${JSON.stringify(record.version)}, not ${JOURNAL_VERSION}`
      if (typeof record.suite_hash !== 'string' || typeof record.started_at !== 'string' || typeof record.planned !== 'number' || typeof record.reused !== 'number') return 'header without its suite_hash, started_at, planned or reused'
      if (!Array.isArray(record.cases) || !record.cases.every((c) => isObject(c) && typeof c.id === 'string')) return 'header.cases is not a list of cases'
      if (!isObject(record.behaviour) || typeof record.behaviour.status !== 'string') return 'header.behaviour is not a layer status'
      if (!isObject(record.gate) || typeof record.gate.max_drop !== 'number' || typeof record.gate.baseline !== 'string') return 'header.gate is not the gate settings'
      const plan = record.tool_tests
      if (plan !== undefined && plan !== null && !(isObject(plan) && Array.isArray(plan.ids) && plan.ids.every((id) => typeof id === 'string'))) return 'header.tool_tests is not a plan of tool tests'
      if (!isObject(record.config)) return 'header.config is missing'
      const apps = record.apps
      if (apps !== undefined && apps !== null && !(isObject(apps) && (apps.visual_diff === 'review' || apps.visual_diff === 'fail') && typeof apps.visual_threshold === 'number')) return 'header.apps is not the apps settings (visual_diff, visual_threshold)'
      if (record.evals_v1 !== undefined && record.evals_v1 !== null) {
        const problem = shapeProblem('evalsV1', record.evals_v1, 'header.evals_v1')
        if (problem) return problem
      }
      return shapeProblem('config', upgradeConfig(record.config as unknown as ResultsConfig), 'header.config')
    }
    case 'run':
      if (!isRun(record.run)) return 'run without its case_id, model, prompt_name, attempt or status'
      return shapeProblem('run', upgradeRun(record.run))
    case 'conformance':
      return shapeProblem('conformance', record.section, 'section')
    case 'end': {
      if (typeof record.duration_s !== 'number') return 'end.duration_s is not a number'
      const problem = shapeProblem('usage', record.overhead, 'end.overhead')
      if (problem) return problem
      const cache = record.cache
      if (cache !== null && cache !== undefined && !(isObject(cache) && ['hits', 'misses', 'saved_tokens'].every((k) => typeof cache[k] === 'number'))) return 'end.cache is not cache statistics'
      const cancelled = record.cancelled
      if (cancelled !== null && cancelled !== undefined && !(isObject(cancelled) && typeof cancelled.signal === 'string' && typeof cancelled.at === 'string' && typeof cancelled.planned === 'number' && typeof cancelled.finished === 'number')) return 'end.cancelled is not a cancellation'
      return null
    }
    case 'tool_test':
      return shapeProblem('toolTest', record.test, 'test')
    case 'apps':
      return appsRecordProblem(record)
    case 'skipped':
      return (record.layer === 'behaviour' || record.layer === 'tool_tests') && typeof record.reason === 'string' ? null : 'skipped without its layer or reason'
    default:
      return `a record of unknown type ${JSON.stringify(record.type) ?? 'missing'}`
  }
}

function appsRecordProblem(record: Record<string, unknown>): string | null {
  if (record.status !== 'ran' && record.status !== 'skipped') return 'apps.status is not ran or skipped'
  if (record.reason !== null && typeof record.reason !== 'string') return 'apps.reason is not a string or null'
  const browser = record.browser
  if (browser === null) return null
  if (!isObject(browser) || typeof browser.path !== 'string' || typeof browser.version !== 'string' || !['input', 'env', 'search'].includes(browser.source as string)) return 'apps.browser is not a browser (path, version, source) or null'
  return null
}

function isRun(run: unknown): run is RunResult {
  const r = run as Partial<RunResult> | undefined
  return !!r && typeof r === 'object' && typeof r.case_id === 'string' && typeof r.model === 'string' && typeof r.prompt_name === 'string' && typeof r.attempt === 'number' && typeof r.status === 'string'
}

/** Runs an interrupted attempt finished with a verdict; errored, cancelled and skipped (over budget) runs run again. */
export function reusableRuns(state: JournalState): RunResult[] {
  return [...state.runs.values()].filter((r) => r.status === 'passed' || r.status === 'failed')
}

/** The results document a journal holds (the gate is applied after, against its baseline). */
export function documentFromJournal(state: JournalState): ResultsDocument {
  const { header, end } = state
  const runs = [...state.runs.values()]
  const behaviour: BehaviourStatus = state.skipped.behaviour ? { status: 'skipped', reason: state.skipped.behaviour } : header.behaviour
  return assembleDocument({
    started_at: header.started_at,
    duration_s: end?.duration_s ?? 0,
    config: header.config,
    // Cases journaled before Layer 2 existed had none.
    cases: header.cases.map((c) => ({ ...c, resilience: c.resilience ?? noResilience() })),
    behaviour,
    conformance: state.conformance,
    tool_tests: toolTestsOf(header.tool_tests ?? null, state),
    runs,
    overhead: end?.overhead ?? emptyUsage(),
    cache: end?.cache ?? null,
    cancelled: end?.cancelled ?? null,
    journal: {
      path: state.path,
      reused: header.reused,
      missing:
        (behaviour.status === 'ran' ? Math.max(0, header.planned - runs.length) : 0) +
        (header.tool_tests?.status === 'ran' && !state.skipped.tool_tests ? header.tool_tests.ids.filter((id) => !state.toolTests.has(id)).length : 0)
    },
    shard: header.shard
      ? { ...header.shard, suite_hash: header.suite_hash, planned: header.planned, cases: header.cases, tool_tests_plan: header.tool_tests ?? null, overhead: end?.overhead ?? emptyUsage() }
      : null,
    evals_v1: header.evals_v1 ?? null,
    apps: header.apps ? { settings: header.apps, opened: state.apps } : null
  })
}

/** The tool tests section: the plan, and the tests the journal holds in plan order. */
function toolTestsOf(plan: ToolTestsPlan | null, state: JournalState): ToolTestsSection | null {
  if (!plan) return null
  const skipped = state.skipped.tool_tests
  const tests = skipped ? [] : plan.ids.flatMap((id) => state.toolTests.get(id) ?? [])
  const count = (status: ToolTestResult['status']) => tests.filter((t) => t.status === status).length
  return {
    status: skipped ? 'skipped' : plan.status,
    reason: skipped ?? plan.reason,
    snapshot_dir: plan.snapshot_dir,
    total: tests.length,
    passed: count('passed'),
    failed: count('failed'),
    errored: count('error'),
    cancelled: count('cancelled'),
    tests
  }
}
