import { serverTemplate } from '../config/server-config.js'
import type { ServerConfig, Suite } from '../config/types.js'
import { cancellationOf } from '../execute/cancellation.js'
import type { EngineSettings, ExecutedRuns } from '../execute/engine-types.js'
import type { Cancellation, ResultsConfig } from '../results/types.js'
import { urlCredentials } from '../util/redact.js'

/** The document's `cancelled` section, when the cancel signal fired. */
export function cancelledSummary(cancel: AbortSignal | undefined, executed: Pick<ExecutedRuns, 'planned' | 'finished'>): Cancellation | null {
  const reason = cancellationOf(cancel)
  if (!reason) return null
  return { signal: reason.signalName, at: reason.at, planned: executed.planned, finished: executed.finished }
}

/** The configuration as the document shows it: the server as written, its placeholders unexpanded. */
export function resultsConfig(suite: Suite, configured: ServerConfig, settings: Omit<EngineSettings, 'today'>): ResultsConfig {
  const server = serverTemplate(configured)
  return {
    eval_cases: suite.source,
    server: server.kind === 'stdio' ? { kind: 'stdio', command: server.command, args: server.args } : { kind: 'http', url: urlCredentials(server.url).masked },
    models: suite.models,
    judge_model: suite.judge_model,
    system_prompts: suite.system_prompts.map((p) => p.name),
    filter: settings.filter || null,
    max_steps: settings.maxSteps,
    concurrency: settings.concurrency,
    server_reuse: settings.serverReuse ?? 'run',
    timeout_seconds: settings.timeoutSeconds,
    // Recorded masked (a key in the URL is a secret); the hashes that match a journal take the real value.
    base_url: urlCredentials(settings.baseUrl).masked,
    pass_floors: suite.pass_floors,
    resilience_floors: suite.resilience_floors,
    budgets: suite.budgets,
    pricing: suite.pricing
  }
}
