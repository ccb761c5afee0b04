import { basename } from 'node:path'
import { Document, Pair, Scalar, YAMLMap, YAMLSeq, isNode } from 'yaml'
import { secretNames, type WrittenConfig } from './written-config.js'

/** Commands the runner can start after actions/setup-node and `npm ci`. */
const NODE_COMMANDS = new Set(['node', 'npx', 'npm', 'tsx'])

/**
 * The GitHub Actions workflow (modelled on examples/workflows/eval.yml): the server config as
 * written (placeholders kept, each read from a repository secret through the step's env), the
 * generated suite, the OpenRouter key from the repository secrets.
 */
export interface WorkflowSuite {
  /** The input that names the suite: `eval_cases` (eval_cases.yaml) or `eval_suite` (an evals/v1 suite). */
  input: 'eval_cases' | 'eval_suite'
  /** Pass server_config: always for eval_cases; for evals/v1 only when its server block cannot hold the config. */
  serverConfig: boolean
}

export function buildWorkflow(config: WrittenConfig, evalCasesPath: string, suite: WorkflowSuite = { input: 'eval_cases', serverConfig: true }): { doc: Document; secrets: string[] } {
  const doc = new Document({})
  const root = doc.contents as YAMLMap
  const secrets = secretNames(config.json)
  const set = (m: YAMLMap, k: string, v: unknown, c?: { before?: string; after?: string; space?: boolean }) => {
    const keyNode = new Scalar(k)
    if (c?.before) keyNode.commentBefore = c.before
    if (c?.space) keyNode.spaceBefore = true
    const value = isNode(v) ? v : doc.createNode(v)
    if (c?.after) (value as Scalar).comment = ` ${c.after}`
    m.items.push(new Pair(keyNode, value))
    return value
  }
  const map = () => new YAMLMap()

  doc.commentBefore = [
    " Evaluate the MCP server on every pull request (written by MCP Server Evals' `init`).",
    ' Move it to .github/workflows/mcp-evals.yml, and add OPENROUTER_API_KEY to the repository secrets',
    ` (Settings → Secrets and variables → Actions)${secrets.length ? `, and ${secrets.join(', ')}` : ''}.`,
    ' Without the key (a pull request from a fork gets no secrets) only the free layers run.'
  ].join('\n')

  set(root, 'name', 'MCP evals')
  const on = map()
  set(on, 'pull_request', null)
  // Without runs on the default branch no baseline is ever saved, and `baseline: auto` never engages the delta gate.
  const push = map()
  const branches = new YAMLSeq()
  branches.flow = true
  branches.items.push(doc.createNode('main'))
  set(push, 'branches', branches, { after: 'TODO: your default branch, if not main: its green runs are the baseline' })
  set(on, 'push', push)
  set(on, 'workflow_dispatch', null)
  set(root, 'on', on, { space: true })
  const permissions = map()
  set(permissions, 'contents', 'read')
  set(permissions, 'pull-requests', 'write', { after: 'the sticky comment' })
  set(root, 'permissions', permissions, { space: true })
  const concurrency = map()
  set(concurrency, 'group', 'mcp-evals-${{ github.event.pull_request.number || github.run_id }}')
  set(concurrency, 'cancel-in-progress', "${{ github.event_name == 'pull_request' }}")
  set(root, 'concurrency', concurrency, {
    space: true,
    before: [
      ' One run per pull request: a new push cancels the one still in flight (its model calls cost money).',
      ' Each push to the default branch has a group of its own (its run id): never cancelled nor replaced by a newer one, so each green run is kept as the baseline.'
    ].join('\n')
  })

  const steps = new YAMLSeq()
  const step = (entries: [string, unknown, { before?: string; after?: string }?][], before?: string) => {
    const m = map()
    for (const [k, v, c] of entries) set(m, k, v, c)
    if (before) m.commentBefore = before
    steps.items.push(m)
    return m
  }
  step([['uses', 'actions/checkout@v5']])
  const server = serverOf(config.json)
  const command = typeof server.command === 'string' ? basename(server.command) : null
  let installNote: string | undefined
  if (command !== null && NODE_COMMANDS.has(command)) {
    const setup = map()
    set(setup, 'node-version', 24)
    step([
      ['uses', 'actions/setup-node@v5'],
      ['with', setup]
    ])
    step([['run', 'npm ci', { after: 'TODO: whatever the server needs to start (a build step?)' }]])
  } else if (command !== null) {
    installNote = ` TODO: install what \`${oneLine(command)}\` needs to start the server (setup-python, uv, docker…).`
  } else {
    installNote = config.localUrl
      ? ' TODO: the URL is on this machine: start the server in a step before this one, or use a deployed URL.'
      : ' A deployed server: the runner must be able to reach its URL.'
  }

  const run = map()
  if (installNote) run.commentBefore = installNote
  set(run, 'name', 'Run evals')
  set(run, 'id', 'evals')
  set(run, 'uses', 'mcp-server-evals/mcp-server-evals@v1')
  if (secrets.length > 0) {
    const env = map()
    for (const name of secrets) {
      const introduced = config.introduced.some((i) => i.name === name)
      set(env, name, `\${{ secrets.${name} }}`, introduced ? { after: 'TODO: add this repository secret (init took its value out of the server config)' } : undefined)
    }
    const where = suite.serverConfig ? 'server_config, never pasted into the JSON' : "the suite's server block, never pasted into it"
    set(run, 'env', env, { before: ` Secrets go in through the env and \${NAME} placeholders in ${where}.` })
  }
  const inputs = map()
  const serverConfig = new Scalar(JSON.stringify(config.json))
  serverConfig.type = Scalar.QUOTE_SINGLE
  if (config.absolutePaths.length > 0) serverConfig.comment = ' TODO: absolute paths will not exist on the runner: make them relative to the repository root'
  if (suite.serverConfig) set(inputs, 'server_config', serverConfig)
  set(inputs, suite.input, evalCasesPath)
  set(inputs, 'openrouter_api_key', '${{ secrets.OPENROUTER_API_KEY }}')
  set(inputs, 'baseline', 'auto', { after: 'gate against the last green results of the default branch' })
  set(run, 'with', inputs)
  steps.items.push(run)

  const job = map()
  set(job, 'runs-on', 'ubuntu-latest')
  set(job, 'timeout-minutes', 30, { after: "a server or provider that hangs stops here, not after GitHub's 6 hours" })
  set(job, 'steps', steps)
  const jobs = map()
  set(jobs, 'evals', job)
  set(root, 'jobs', jobs, { space: true })
  return { doc, secrets }
}

function serverOf(json: Record<string, unknown>): Record<string, unknown> {
  const wrapped = json.mcpServers
  if (wrapped && typeof wrapped === 'object' && !Array.isArray(wrapped)) {
    const first = Object.values(wrapped)[0]
    if (first && typeof first === 'object') return first as Record<string, unknown>
  }
  return json
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ')
}
