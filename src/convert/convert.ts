import { basename } from 'node:path'
import { evalCasesToV1 } from './cases-to-v1.js'
import type { ReadSuite, SuiteFormat } from './read.js'
import { renderWithNotes } from './render.js'
import { v1ToEvalCases } from './v1-to-cases.js'

export interface Conversion {
  to: SuiteFormat
  /** The converted suite as YAML, each note a comment at its place. */
  text: string
  /** One line per thing the input says that the output format has no counterpart for. */
  losses: string[]
  /** Nothing to run was left (an eval_cases suite needs a case or a tool test to load). */
  empty: boolean
}

/** A suite name for evals/v1 from a file name: `evals/eval_cases.yaml` → `eval_cases`. */
export function suiteNameOf(file: string): string {
  return basename(file).replace(/\.(suite\.)?ya?ml$/i, '') || 'suite'
}

/** Convert a suite read by readSuiteFile into the other format. `file` is named in the header. */
export function convertSuite(read: ReadSuite, file: string): Conversion {
  const shown = basename(file)
  if (read.format === 'evals-v1') {
    const { value, notes } = v1ToEvalCases(read.suite)
    const header = [
      `Converted by MCP Server Evals' \`convert\` from ${shown}, an evals/v1 suite.`,
      'A "no counterpart" comment marks what eval_cases cannot say; the other comments say where meanings differ.'
    ]
    const empty = value.tool_tests === undefined && value.cases === undefined
    if (empty) header.push('Nothing here runs yet: an eval_cases suite needs at least one tool test or case.')
    return { to: 'eval-cases', text: renderWithNotes(value, notes.all, header), losses: notes.lossLines(), empty }
  }
  const { value, notes } = evalCasesToV1(read.raw, suiteNameOf(file))
  const header = [
    `Converted by MCP Server Evals' \`convert\` from ${shown}, an eval_cases suite.`,
    'A "no counterpart" comment marks what evals/v1 cannot say; the other comments say where meanings differ.'
  ]
  const flows = (value.flows ?? []) as { checks?: unknown[]; scenarios?: unknown[] }[]
  const empty = flows.every((flow) => !flow.checks?.length && !flow.scenarios?.length)
  if (empty) header.push('Nothing here runs yet: an evals/v1 suite needs at least one check or scenario.')
  return { to: 'evals-v1', text: renderWithNotes(value, notes.all, header), losses: notes.lossLines(), empty }
}
