import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
// Log lines through the neutraliser; setOutput and the summary as @actions/core has them.
import * as core from './log.js'
import * as github from '@actions/github'

/**
 * The Actions cache keeps two things between workflow runs: the recorded LLM answers (so an
 * unchanged suite re-runs without API calls) and the last green results of the default branch
 * (the baseline, with its MCP Apps screenshots in `apps/`). Cache keys are immutable, so each run
 * saves under a new key and restores by prefix. Where the cache service is unavailable, warn and go on without.
 */

const runSuffix = () => `${github.context.runId}-${process.env.GITHUB_RUN_ATTEMPT ?? '1'}`
const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 200)

type ActionsCache = typeof import('@actions/cache')

/**
 * @actions/cache where its service is there, else undefined. Its isFeatureAvailable needs
 * ACTIONS_CACHE_URL (service v1) or ACTIONS_RESULTS_URL (v2): without either the package is not
 * even loaded, since loading it is a tenth of a second of the action's start.
 */
async function actionsCache(): Promise<ActionsCache | undefined> {
  if (!process.env.ACTIONS_CACHE_URL && !process.env.ACTIONS_RESULTS_URL) return undefined
  const cache = await import('@actions/cache')
  return cache.isFeatureAvailable() ? cache : undefined
}

/** @actions/cache, or undefined after a warning that says what is not done without it. */
async function available(what: string): Promise<ActionsCache | undefined> {
  const cache = await actionsCache()
  if (!cache) core.warning(`The Actions cache is not available here: ${what}.`)
  return cache
}

/** Restore recorded LLM answers for this suite (or, failing that, any suite's) into `dir`. */
export async function restoreResponses(dir: string, suiteHash: string): Promise<void> {
  const cache = await available('no recorded LLM answers are restored')
  if (!cache) return
  try {
    const hit = await cache.restoreCache([dir], `mcp-evals-llm-${suiteHash}-${runSuffix()}`, [`mcp-evals-llm-${suiteHash}-`, 'mcp-evals-llm-'])
    core.info(hit ? `Restored recorded LLM answers (${hit}).` : 'No recorded LLM answers to restore.')
  } catch (error) {
    core.warning(`Could not restore recorded LLM answers: ${(error as Error).message}`)
  }
}

export async function saveResponses(dir: string, suiteHash: string): Promise<void> {
  await saveEntry(dir, `mcp-evals-llm-${suiteHash}-${runSuffix()}`, 'recorded LLM answers')
}

/** Save `path` under `key` where it exists and the service is there; a failure is a warning. */
async function saveEntry(path: string, key: string, what: string, saved?: string): Promise<void> {
  if (!existsSync(path)) return
  const cache = await actionsCache()
  if (!cache) return
  try {
    await cache.saveCache([path], key)
    if (saved) core.info(saved)
  } catch (error) {
    core.warning(`Could not save the ${what}: ${(error as Error).message}`)
  }
}

/** The last green results of the default branch, restored into `dir`; its path, or '' when there is none. */
export async function restoreBaseline(dir: string, key: string): Promise<string> {
  const cache = await available('no baseline is restored (the pass floors decide)')
  if (!cache) return ''
  try {
    const hit = await cache.restoreCache([dir], `mcp-evals-baseline-${safe(key)}-${runSuffix()}`, [`mcp-evals-baseline-${safe(key)}-`])
    const file = join(dir, 'eval-results.json')
    if (hit && existsSync(file)) {
      core.info(`Restored the baseline (${hit}).`)
      return file
    }
    core.warning('No baseline in the Actions cache yet (it is saved after a green run on the default branch): the pass floors decide.')
  } catch (error) {
    core.warning(`Could not restore the baseline: ${(error as Error).message}`)
  }
  return ''
}

export type SaveBaseline = 'auto' | 'always' | 'never'

/** Only green results become the baseline: on the default branch (auto), anywhere (always), or never. */
export function shouldSaveBaseline(when: SaveBaseline, passed: boolean, ref: string, defaultBranch: string | undefined): boolean {
  if (when === 'never' || !passed) return false
  return when === 'always' || (defaultBranch !== undefined && ref === `refs/heads/${defaultBranch}`)
}

/**
 * The MCP Apps screenshots of the results being saved (`<appsDir>/*.png`, not the baseline's or
 * the diff images beside them) copied into `<dir>/apps/`, in place of the earlier baseline's:
 * the next run's visual diff compares with them. Nothing when there is no such directory.
 */
export function copyBaselineScreenshots(appsDir: string | undefined, dir: string): number {
  const target = join(dir, 'apps')
  rmSync(target, { recursive: true, force: true })
  if (!appsDir || !existsSync(appsDir)) return 0
  const names = readdirSync(appsDir, { withFileTypes: true }).filter((e) => e.isFile() && /^[A-Za-z0-9][A-Za-z0-9._-]*\.png$/.test(e.name))
  if (names.length === 0) return 0
  mkdirSync(target, { recursive: true })
  for (const e of names) copyFileSync(join(appsDir, e.name), join(target, e.name))
  return names.length
}

export async function saveBaseline(resultsPath: string, dir: string, key: string, when: SaveBaseline, passed: boolean, appsDir?: string): Promise<void> {
  const defaultBranch = (github.context.payload.repository as { default_branch?: string } | undefined)?.default_branch
  if (!shouldSaveBaseline(when, passed, github.context.ref, defaultBranch)) return
  const cache = await actionsCache()
  if (!cache) {
    core.warning('The Actions cache is not available here: the results are not saved as the baseline.')
    return
  }
  try {
    mkdirSync(dir, { recursive: true })
    copyFileSync(resultsPath, join(dir, 'eval-results.json'))
    const screenshots = copyBaselineScreenshots(appsDir, dir)
    await cache.saveCache([dir], `mcp-evals-baseline-${safe(key)}-${runSuffix()}`)
    core.info(`Saved these results as the new baseline${screenshots > 0 ? ` (with ${screenshots} MCP Apps screenshot${screenshots === 1 ? '' : 's'})` : ''}.`)
  } catch (error) {
    core.warning(`Could not save the baseline: ${(error as Error).message}`)
  }
}

/**
 * The run journal of an earlier attempt of this workflow run (a re-run of a cancelled or failed
 * job), restored to `path` so the evaluation can resume from it. Other workflow runs never match.
 */
export async function restoreJournal(path: string, journalHash: string, jobKey: string): Promise<void> {
  const cache = await available('no run journal of an earlier attempt is restored (everything runs)')
  if (!cache) return
  try {
    const prefix = journalPrefix(journalHash, jobKey)
    const hit = await cache.restoreCache([path], `${prefix}${process.env.GITHUB_RUN_ATTEMPT ?? '1'}`, [prefix])
    core.info(hit ? `Restored the run journal of an earlier attempt (${hit}).` : 'No run journal of an earlier attempt to resume from.')
  } catch (error) {
    core.warning(`Could not restore the run journal: ${(error as Error).message}`)
  }
}

export async function saveJournal(path: string, journalHash: string, jobKey: string): Promise<void> {
  await saveEntry(path, `${journalPrefix(journalHash, jobKey)}${process.env.GITHUB_RUN_ATTEMPT ?? '1'}`, 'run journal', 'Saved the run journal: a re-run of this job resumes from it.')
}

/**
 * One journal per suite, job and matrix leg of this workflow run. A matrix leg is told apart by
 * the runner's OS and architecture and by `jobKey` (the comment key): legs that differ in
 * something else need their own comment_key, as they do for their own comments.
 */
function journalPrefix(journalHash: string, jobKey: string): string {
  const job = [process.env.GITHUB_JOB ?? '', process.env.RUNNER_OS ?? '', process.env.RUNNER_ARCH ?? '', jobKey].join('/')
  const jobHash = createHash('sha256').update(job).digest('hex').slice(0, 12)
  return `mcp-evals-journal-${journalHash}-${jobHash}-${github.context.runId}-`
}
