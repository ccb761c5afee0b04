import { dirname, isAbsolute, join, relative } from 'node:path'
import { selectCases, selectToolTests } from '../config/filter.js'
import { Inputs } from '../constants.js'
import type { Prepared } from '../config/prepare.js'
import type { RunOptions } from '../config/options.js'
import type { Suite } from '../config/types.js'
import type { BehaviourStatus, ToolTestsPlan } from '../results/types.js'

/** Whether the behaviour runs happen, and why not: the options, or a suite of tool tests alone. */
export function behaviourStatus(suite: Suite, options: RunOptions): BehaviourStatus {
  if (options.skipBehaviour !== null) return { status: 'skipped', reason: options.skipBehaviour }
  if (suite.cases.length === 0) return { status: 'skipped', reason: 'the suite has no cases, only tool tests' }
  if (options.filter !== '' && selectCases(suite, options.filter).length === 0) return { status: 'skipped', reason: `the filter '${options.filter}' selects no case` }
  return { status: 'ran', reason: null }
}

/** The tool tests this evaluation runs; null when the suite has none. */
export function toolTestsPlan(prepared: Prepared): ToolTestsPlan | null {
  const { suite, options } = prepared
  if (suite.tool_tests.length === 0) return null
  const snapshot_dir = shownPath(snapshotDir(options))
  if (options.toolTests === 'off') return { status: 'skipped', reason: options.conformance === 'only' ? `${Inputs.Conformance} is "only"` : 'tool tests are off', snapshot_dir, ids: [] }
  const selected = selectToolTests(suite, options.filter)
  if (selected.length === 0) return { status: 'skipped', reason: `the filter '${options.filter}' selects no tool test`, snapshot_dir, ids: [] }
  return { status: 'ran', reason: null, snapshot_dir, ids: selected.map((t) => t.id) }
}

/** A path as a reviewer knows it: relative to the working directory when it is inside it (no runner paths in a comment). */
function shownPath(path: string): string {
  const inside = relative(process.cwd(), path)
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path
}

/** The snapshot directory: as given, else `__snapshots__` beside the eval cases file. */
export function snapshotDir(options: RunOptions): string {
  return options.snapshotDir || join(dirname(options.evalCases), '__snapshots__')
}
