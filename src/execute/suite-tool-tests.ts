import type { Prepared } from '../config/prepare.js'
import type { SessionFactory } from '../mcp/session.js'
import type { ToolTestResult } from '../results/types.js'
import { runToolTests } from '../tooltests/run.js'
import { fileSnapshotStore } from '../tooltests/snapshot.js'
import type { AppRenderer } from './app-host.js'
import type { JournalWriter } from './journal.js'
import { snapshotDir } from './layer-plan.js'

/** The selected tool tests, each finished test appended to the journal as it is done. */
export async function runSuiteToolTests(
  prepared: Prepared,
  ids: string[],
  sessions: SessionFactory,
  journal: JournalWriter,
  hooks: { cancel?: AbortSignal; onToolTestFinished?: (test: ToolTestResult, finished: number, total: number) => void },
  apps: AppRenderer | null = null
): Promise<void> {
  const { options, suite } = prepared
  const selected = new Set(ids)
  await runToolTests(
    suite.tool_tests.filter((t) => selected.has(t.id)),
    {
      timeoutSeconds: options.timeoutSeconds,
      concurrency: options.concurrency,
      snapshots: fileSnapshotStore(snapshotDir(options), { ci: prepared.ci, update: options.updateSnapshots }),
      secrets: prepared.secrets
    },
    {
      sessions,
      cancel: hooks.cancel,
      ...(apps ? { apps } : {}),
      onTestFinished: (test, finished, total) => {
        journal.append({ type: 'tool_test', test })
        hooks.onToolTestFinished?.(test, finished, total)
      }
    }
  )
}
