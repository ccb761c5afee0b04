import { resolve } from 'node:path'
import { runKey } from '../plan/expand.js'
import { ellipsize } from '../util/text.js'
import { TOOL_NAME, TOOL_VERSION } from '../version.js'
import { MergeError, type ShardFile } from './read-shards.js'

/**
 * The shards as one whole suite, in shard order, or a MergeError naming the file that does not
 * belong and what differs: every shard was written by this tool and version, of the same suite
 * (suite hash, configuration, cases, plan size), and together they cover the plan exactly once —
 * no shard index twice, none missing, no run in two files, and the shards' runs add up to the plan.
 */
export function checkShardSet(files: readonly ShardFile[]): ShardFile[] {
  const shards = [...files].sort((a, b) => a.document.shard.index - b.document.shard.index)
  for (const file of shards) checkTool(file)
  const [reference] = shards
  for (const file of shards.slice(1)) checkSameSuite(file, reference!)
  checkCoverage(shards)
  return shards
}

/** The merged document is assembled by this version: a shard of another could hold records it reads otherwise. */
function checkTool({ path, document }: ShardFile): void {
  const { name, version } = document.tool
  if (name === TOOL_NAME && version === TOOL_VERSION) return
  throw new MergeError(`${path}: was written by ${name} ${version}, and this merge is ${TOOL_NAME} ${TOOL_VERSION}: merge with the version that ran the shards`)
}

function checkSameSuite(file: ShardFile, reference: ShardFile): void {
  const mine = file.document
  const theirs = reference.document
  const differs = (what: string, a: unknown, b: unknown) =>
    new MergeError(`${file.path}: ${what} differs from ${reference.path}'s (${show(a)}, not ${show(b)}): the shards are not of one suite run; merge the shards of one run`)
  if (mine.shard.count !== theirs.shard.count) throw differs('the shard count', mine.shard.count, theirs.shard.count)
  const config = firstDifference(mine.config ?? {}, theirs.config ?? {})
  if (config) throw differs(`config.${config.key}`, config.mine, config.theirs)
  const cases = Math.max(mine.shard.cases.length, theirs.shard.cases.length)
  for (let i = 0; i < cases; i++) {
    const [a, b] = [mine.shard.cases[i], theirs.shard.cases[i]]
    if (same(a, b)) continue
    // The same case changed: the field that differs; else which case is where.
    const field = a && b && a.id === b.id ? firstDifference(a, b) : null
    throw field ? differs(`cases[${i}].${field.key} (case ${a!.id})`, field.mine, field.theirs) : differs(`cases[${i}]`, a?.id, b?.id)
  }
  // An evals/v1 suite's own section (clients, gates, what was not run): one suite's shards say the same.
  if (!same(mine.evals_v1 ?? null, theirs.evals_v1 ?? null)) {
    const field = mine.evals_v1 && theirs.evals_v1 ? firstDifference(mine.evals_v1, theirs.evals_v1) : null
    throw field ? differs(`evals_v1.${field.key}`, field.mine, field.theirs) : differs('evals_v1', mine.evals_v1 ? 'an evals/v1 suite' : 'none', theirs.evals_v1 ? 'an evals/v1 suite' : 'none')
  }
  if (mine.shard.planned_total !== theirs.shard.planned_total) throw differs('the planned runs of the whole suite (planned_total)', mine.shard.planned_total, theirs.shard.planned_total)
  if (mine.shard.groups_total !== theirs.shard.groups_total) throw differs('the groups of the whole suite (groups_total)', mine.shard.groups_total, theirs.shard.groups_total)
  // What the configuration does not show: the eval cases file as written, the server's cwd and the names of its variables.
  if (mine.shard.suite_hash !== theirs.shard.suite_hash) {
    throw differs('the suite (suite_hash: the eval cases file, models, judge, server, base URL, max_steps or max_tool_result_chars)', mine.shard.suite_hash, theirs.shard.suite_hash)
  }
}

/** Every shard index once, and every run of the plan in one shard only. */
function checkCoverage(shards: ShardFile[]): void {
  const { count, planned_total, groups_total } = shards[0]!.document.shard
  const byIndex = new Map<number, ShardFile>()
  for (const file of shards) {
    const { index } = file.document.shard
    const other = byIndex.get(index)
    if (other) throw new MergeError(`${other.path} and ${file.path} are both shard ${index} of ${count}: give each shard once`)
    byIndex.set(index, file)
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index))
  if (missing.length > 0) {
    const given = shards.map((f) => `${f.document.shard.index} (${f.path})`).join(', ')
    throw new MergeError(`${missing.length === 1 ? 'shard' : 'shards'} ${missing.join(', ')} of ${count} ${missing.length === 1 ? 'is' : 'are'} missing: given were shard ${given}; did a shard job fail before it uploaded its results?`)
  }
  const runs = new Map<string, string>()
  for (const file of shards) {
    for (const run of file.document.runs) {
      const key = runKey(run)
      const other = runs.get(key)
      if (other !== undefined) throw new MergeError(`the run ${run.case_id} · ${run.model} · ${run.prompt_name} (attempt ${run.attempt}) is in both ${other} and ${file.path}: the shards overlap`)
      runs.set(key, file.path)
    }
  }
  const planned = shards.reduce((sum, f) => sum + f.document.shard.planned, 0)
  const groups = shards.reduce((sum, f) => sum + f.document.shard.groups, 0)
  if (planned !== planned_total || groups !== groups_total) {
    const each = shards.map((f) => `${f.path}: ${f.document.shard.planned}`).join(', ')
    throw new MergeError(`the shards plan ${planned} runs in ${groups} groups, and the suite ${planned_total} runs in ${groups_total} groups (${each}): they do not split one plan`)
  }
}

/** The first key (in the reference's order, then the other's) whose values differ, with both values; null when none does. */
function firstDifference(mine: object, theirs: object): { key: string; mine: unknown; theirs: unknown } | null {
  const [a, b] = [mine as Record<string, unknown>, theirs as Record<string, unknown>]
  const key = [...new Set([...Object.keys(b), ...Object.keys(a)])].find((k) => !same(a[k], b[k]))
  return key === undefined ? null : { key, mine: a[key], theirs: b[key] }
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** A value in a message: short, and plain JSON (a model list, a number, a hash). */
function show(value: unknown): string {
  return ellipsize(value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value), 120)
}

/** A merge writes its files beside the shards': never over one of them. */
export function checkOutputsApart(shards: readonly ShardFile[], outputs: readonly { path: string; what: string }[]): void {
  const inputs = new Map(shards.map((s) => [resolve(s.path), s.path]))
  for (const { path, what } of outputs) {
    const input = inputs.get(resolve(path))
    if (input !== undefined) throw new MergeError(`${input}: is a shard's results, and the merged ${what} would be written over it: write the merge elsewhere, or match only the shards' files (eval-results.shard-*.json)`)
  }
}
