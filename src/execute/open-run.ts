import type { RunError, Transcript } from '../agent/run-agent.js'
import { mentionsRunDir, runDirSubdirs } from '../config/run-dir.js'
import { ServerError, type McpSession, type OpenOptions } from '../mcp/session.js'
import type { RunSpec } from '../plan/expand.js'
import { cancellationOf, type RunAbort } from './cancellation.js'
import type { EngineDeps, EngineSettings } from './engine-types.js'
import { makeRunDir, type RunDir } from '../mcp/run-dirs.js'

/** This run's `${RUN_DIR}`, when its server config or its case's roots use one; null otherwise. */
export async function runDirFor(spec: RunSpec, settings: EngineSettings): Promise<RunDir | null> {
  const runDirs = settings.runDirs
  if (!runDirs) return null
  const caseUses = (spec.case.inputs?.roots ?? []).some(mentionsRunDir)
  if (!runDirs.serverUses && !caseUses) return null
  const roots = spec.case.inputs?.roots ?? settings.serverRoots ?? []
  return makeRunDir(runDirs.base, `${String(spec.index).padStart(3, '0')}-${spec.case.id}`, (dir) => runDirSubdirs(dir, runDirs.cwd, roots))
}

export type OpenedSession =
  | { session: McpSession; error?: undefined; cancelled?: undefined }
  | { session?: undefined; error: RunError; cancelled?: undefined }
  | { session?: undefined; error?: undefined; cancelled: NonNullable<Transcript['cancelled']> }

/**
 * Start this run's own server (or remote session), within timeout_seconds, opened as its layers
 * ask (its requests carry the run's trace context), on the run's signal (the session lives on it
 * until the run ends). Never throws.
 */
export async function openForRun(settings: EngineSettings, deps: EngineDeps, run: RunAbort, openOptions: OpenOptions): Promise<OpenedSession> {
  const waiting = (waiting_for: string) => ({ cancelled: { reason: cancellationOf(deps.cancel)!, waiting_for } })
  if (deps.cancel?.aborted) return waiting('a free slot')
  const clearLimit = run.limit(settings.timeoutSeconds * 1000, `the server did not start within timeout_seconds (${settings.timeoutSeconds}s)`)
  try {
    return { session: await deps.sessions.open(run.signal, openOptions) }
  } catch (error) {
    if (cancellationOf(deps.cancel)) return waiting('the server to start')
    if (run.signal.aborted) return { error: { stage: 'timeout', message: (run.signal.reason as Error).message } }
    return {
      error: {
        stage: 'server',
        message: error instanceof Error ? error.message : String(error),
        ...(error instanceof ServerError && error.stderrTail ? { stderr_tail: error.stderrTail } : {})
      }
    }
  } finally {
    clearLimit()
  }
}
