import { LOCAL_TARGET } from '../results/evals-v1.js'
import { ConfigError } from './errors.js'
import type { EvalsV1Client, EvalsV1Context, EvalsV1NotRun } from '../results/evals-v1.js'
import type { RawV1Client, RawV1Flow } from './evals-v1-raw.js'
import { DEFAULT_MODEL } from './types.js'
import { dotted, type YamlPath } from './yaml-document.js'

// The matrix of an evals/v1 suite: which clients run here (target mcp-use, runOn including this
// job's context), their models (the models input or EVAL_MODELS replaces every client's), the
// system prompts, and the tools each model is not offered.

/** A flow without `systemPrompts` has this one, as in @mcp-use/evals. */
export const DEFAULT_SYSTEM_PROMPTS: Record<string, string> = { default: 'You are a helpful assistant with MCP tools.' }

/** A flow without `clients` has this one. */
const DEFAULT_CLIENT: RawV1Client = { target: LOCAL_TARGET }

/**
 * What `runOn` is matched against: this job's event under GitHub Actions (pull_request*, push,
 * merge_group: ci; workflow_dispatch, repository_dispatch: manual; release; schedule: cron; any
 * other event: ci), manual outside GitHub Actions.
 */
export function contextOf(env: NodeJS.ProcessEnv): EvalsV1Context {
  if (env.GITHUB_ACTIONS !== 'true') return 'manual'
  const event = env.GITHUB_EVENT_NAME ?? ''
  if (event === 'workflow_dispatch' || event === 'repository_dispatch') return 'manual'
  if (event === 'release') return 'release'
  if (event === 'schedule') return 'cron'
  return 'ci'
}

/** The matrix as the suite's clients make it. */
export interface V1Matrix {
  models: string[]
  system_prompts: { name: string; text: string }[]
  clients: EvalsV1Client[]
  not_run: EvalsV1NotRun[]
  /** By model; absent when no client hides a tool. */
  disallowed_tools?: Record<string, string[]>
  /** Whether any client runs here (else the scenarios do not run, as in @mcp-use/evals). */
  runs: boolean
}

/**
 * The clients × models × system prompts of the suite. Several flows must agree on clients and
 * system prompts (one matrix runs); the same model in two running clients must hide the same tools.
 * `override`: the models input, else EVAL_MODELS, split; undefined when neither is set.
 */
export function matrixOf(flows: RawV1Flow[], context: EvalsV1Context, override: string[] | undefined, locate: (path: YamlPath) => ConfigError['where']): V1Matrix {
  const first = flows[0]
  flows.slice(1).forEach((flow, k) => {
    const i = k + 1
    for (const [key, fallback] of [['clients', [DEFAULT_CLIENT]], ['systemPrompts', DEFAULT_SYSTEM_PROMPTS]] as const) {
      if (JSON.stringify(flow[key] ?? fallback) !== JSON.stringify(first[key] ?? fallback)) {
        const path = flow[key] === undefined ? ['flows', i] : ['flows', i, key]
        throw new ConfigError(`flow '${flow.id}' has other ${key} than flow '${first.id}': one matrix of clients × models × system prompts runs for every flow, so the flows must agree on ${key} (give them the same, or one flow)`, locate(path))
      }
    }
  })
  const decided = (first.clients ?? [DEFAULT_CLIENT]).map((client) => {
    const hosted = client.target !== LOCAL_TARGET
    const outside = !hosted && client.runOn !== undefined && !client.runOn.includes(context)
    const reason = hosted
      ? `target ${client.target} runs only in its hosted service; MCP Server Evals runs the mcp-use clients`
      : outside
        ? `runOn [${client.runOn!.join(', ')}] does not include this run's context (${context})`
        : null
    return { client, reason }
  })
  const where = (i: number, j: number) => (first.clients === undefined ? dotted(['flows', i]) : dotted(['flows', i, 'clients', j]))
  // Every flow's clients, in suite order (the flows agree on them).
  const clients: EvalsV1Client[] = flows.flatMap((flow) =>
    decided.map(({ client, reason }) => ({
      flow: flow.id,
      target: client.target,
      models: override ?? (client.models?.length ? [...client.models] : [DEFAULT_MODEL]),
      disallowed_tools: [...(client.disallowedTools ?? [])],
      run_on: client.runOn ? [...client.runOn] : null,
      run: reason === null,
      reason
    }))
  )
  const not_run: EvalsV1NotRun[] = flows.flatMap((_, i) => decided.flatMap(({ reason }, j) => (reason === null ? [] : [{ what: 'client' as const, where: where(i, j), reason }])))
  const running = clients.slice(0, decided.length).map((c, j) => ({ c, j })).filter(({ c }) => c.run)
  const clientModels = [...new Set(running.flatMap(({ c }) => c.models))]
  const hidden = new Map<string, { tools: string[]; j: number }>()
  for (const { c, j } of running) {
    for (const model of c.models) {
      const tools = [...new Set(c.disallowed_tools)].sort()
      const earlier = hidden.get(model)
      if (earlier && JSON.stringify(earlier.tools) !== JSON.stringify(tools)) {
        throw new ConfigError(
          `model ${model} runs in ${where(0, earlier.j)} and in ${where(0, j)} with different disallowedTools ([${earlier.tools.join(', ')}] and [${tools.join(', ')}]): a model runs once per scenario and system prompt here, so its clients must hide the same tools`,
          locate(['flows', 0, 'clients', j, 'disallowedTools'])
        )
      }
      hidden.set(model, { tools, j })
    }
  }
  const disallowed = Object.fromEntries([...hidden].filter(([, h]) => h.tools.length > 0).map(([model, h]) => [model, h.tools]))
  return {
    // The override as given (EVAL_MODELS="," is no model: an error later, as for eval_cases).
    models: override ?? (clientModels.length > 0 ? clientModels : [DEFAULT_MODEL]),
    system_prompts: Object.entries(first.systemPrompts ?? DEFAULT_SYSTEM_PROMPTS).map(([name, text]) => ({ name, text })),
    clients,
    not_run,
    ...(Object.keys(disallowed).length > 0 ? { disallowed_tools: disallowed } : {}),
    runs: running.length > 0
  }
}
