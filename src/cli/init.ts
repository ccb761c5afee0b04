import { lstatSync, mkdirSync, unlinkSync, writeFileSync, type Stats } from 'node:fs'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import { parseArgs, isDeepStrictEqual } from 'node:util'
import { parse, type Document } from 'yaml'
import { docsLink } from '../constants.js'
import { ConfigError } from '../config/errors.js'
import { parseServerConfig, serverSecrets } from '../config/server-config.js'
import { parseSuite } from '../config/suite.js'
import type { ServerConfig } from '../config/types.js'
import { createSessionFactory, ServerError, type McpSession, type McpTool } from '../mcp/session.js'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { redactDeep, redactText, secretForms, MIN_SECRET_LENGTH } from '../util/redact.js'
import { count, someOf } from '../util/words.js'
import { buildSuite, showName, type SuiteCounts } from './init/suite.js'
import { buildWorkflow } from './init/workflow.js'
import { buildEvalsV1Suite, serverBlockOf } from './init/evals-v1-suite.js'
import { parseEvalsV1Suite } from '../config/evals-v1-suite.js'
import { readWrittenConfig, type WrittenConfig } from './init/written-config.js'
import { describeFlagError } from './parse-error.js'
import { cliCommand } from './invocation.js'

export const initUsage = (cmd: string) => `${cmd} init --server-config <json|file> [--out DIR] [--format eval-cases|evals-v1]: connect
to the server, list its tools and write a starting suite, never over an existing file:
  DIR/eval_cases.yaml         a tool test per read-only tool (readOnlyHint), a behaviour case per tool,
                              negative cases; every guess marked TODO
  DIR/evals.suite.yaml        with --format evals-v1, the same drafts as an evals/v1 suite: a check per
                              read-only tool, a scenario per tool, negative scenarios, the server block
  DIR/mcp-evals.yml           a GitHub Actions workflow for it (move it to .github/workflows/)
  --server-config JSON|PATH   the MCP server, as for an evaluation; \${NAME} placeholders stay placeholders
  --out DIR                   where to write (default evals/)
  --format FORMAT             eval-cases (default: eval-action's eval_cases.yaml) or evals-v1
Exit 0 written; 1 the server could not be started or listed; 2 bad flags or config, or a file exists.
The reference: ${docsLink('cli.md#init-a-starting-suite-from-the-server-itself')}`

const INIT_OPTIONS = {
  'server-config': { type: 'string' },
  out: { type: 'string' },
  format: { type: 'string' },
  help: { type: 'boolean', short: 'h' }
} as const
const INIT_FLAGS = Object.keys(INIT_OPTIONS)
const hintLine = () => `Run '${cliCommand()} init --help' for the flags.`

/** The published schema, for a suite that no local copy of the schema is reachable from. */
export const SCHEMA_URL = 'https://raw.githubusercontent.com/mcp-server-evals/mcp-server-evals/main/schema/eval-cases.schema.json'
const PACKAGE_NAME = 'mcp-server-evals'
const SCHEMA_FILE = join('schema', 'eval-cases.schema.json')
const V1_SCHEMA_FILE = join('schema', 'evals-v1.schema.json')
/** How long the server may take to start and list its tools. */
const CONNECT_TIMEOUT_MS = 60_000

interface IO {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
}

/** Stops the command with an exit status and a message for stderr. */
class InitError extends Error {
  constructor(
    message: string,
    readonly code: 1 | 2,
    readonly hint = false
  ) {
    super(message)
  }
}

/**
 * `init`: connect to the server, list its tools, and write a starting suite and workflow under
 * `--out`. It never overwrites: when any target exists nothing is written (exit 2). A server that
 * cannot be started or listed exits 1, as a server failure does in an evaluation; bad flags or a
 * bad server config exit 2, as every usage or configuration error does.
 */
export async function initCommand(argv: string[], io: IO = process, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<number> {
  try {
    return await init(argv, io, env, cwd)
  } catch (error) {
    if (!(error instanceof InitError)) throw error
    io.stderr.write(`error: ${error.message}\n${error.hint ? `${hintLine()}\n` : ''}`)
    return error.code
  }
}

async function init(argv: string[], io: IO, env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({ args: argv, options: INIT_OPTIONS, strict: true }).values
  } catch (error) {
    throw new InitError(describeFlagError(error as Error, INIT_FLAGS), 2, true)
  }
  if (values.help) {
    io.stdout.write(`${initUsage(cliCommand())}\n`)
    return 0
  }
  const format = (values.format as string | undefined) ?? 'eval-cases'
  if (format !== 'eval-cases' && format !== 'evals-v1') throw new InitError(`--format: '${format}' is not a format (eval-cases or evals-v1)`, 2, true)
  const given = values['server-config'] as string | undefined
  if (given === undefined || given.trim() === '') throw new InitError('--server-config: is required', 2, true)
  let config: ServerConfig
  try {
    config = parseServerConfig(given, { input: '--server-config', baseDir: cwd, env })
  } catch (error) {
    if (error instanceof ConfigError) throw new InitError(error.message, 2)
    throw error
  }
  const written = readWrittenConfig(given, cwd)
  const out = (values.out as string | undefined) ?? 'evals'
  if (out.trim() === '') throw new InitError('--out: must not be empty', 2, true)
  const outDir = resolve(cwd, out)
  const v1 = format === 'evals-v1'
  const targets = { suite: join(out, v1 ? 'evals.suite.yaml' : 'eval_cases.yaml'), workflow: join(out, 'mcp-evals.yml') }
  checkTargets(outDir, out, [targets.suite, targets.workflow], cwd)

  const secrets = serverSecrets(config)
  const tools = await listTools(config, secrets)

  const server = serverBlockOf(written.json)
  const suite = v1 ? buildEvalsV1Suite(tools, server, suiteNameOf(outDir), schemaReference(outDir, V1_SCHEMA_FILE)) : buildSuite(tools, schemaReference(outDir))
  const suiteText = render(suite.doc)
  const repoRoot = findUp(cwd, '.git')
  const evalCasesForWorkflow = toPosix(relative(repoRoot ?? cwd, resolve(cwd, targets.suite)))
  const workflow = buildWorkflow(written, evalCasesForWorkflow, v1 ? { input: 'eval_suite', serverConfig: server.leftOut.length > 0 } : undefined)
  const workflowText = render(workflow.doc, { nullStr: '' })

  if (v1) verifyEvalsV1Suite(suiteText, suite.doc, targets.suite)
  else verifySuite(suiteText, suite.doc, targets.suite)
  verifyRoundTrip(workflowText, workflow.doc, targets.workflow)
  // Belt and braces: nothing a placeholder stood for, and no literal init took out, is in a file.
  const forbidden = [...(config.expanded ?? []), ...written.removed]
  for (const [path, text] of [
    [targets.suite, suiteText],
    [targets.workflow, workflowText]
  ] as const) {
    if (containsSecret(text, forbidden)) throw new InitError(`refusing to write ${path}: it would hold a secret value of the server config`, 1)
  }

  writeAll(outDir, [
    [resolve(cwd, targets.suite), suiteText, targets.suite],
    [resolve(cwd, targets.workflow), workflowText, targets.workflow]
  ])
  io.stdout.write(summary(tools, suite.counts, targets, given, written, workflow.secrets, v1))
  return 0
}

function render(doc: Document, options: { nullStr?: string } = {}): string {
  // No folding: a long prompt stays one line, one with newlines becomes a literal block.
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false, ...options })
}

/** Every target must be free; an existing one is named, and nothing is written. */
function checkTargets(outDir: string, out: string, targets: string[], cwd: string): void {
  const dir = stat(outDir)
  if (dir && !dir.isDirectory()) throw new InitError(`--out: ${out} exists and is not a directory`, 2)
  const existing = targets.filter((t) => stat(resolve(cwd, t)) !== null)
  if (existing.length > 0) {
    throw new InitError(
      `${existing.join(' and ')} already ${existing.length === 1 ? 'exists' : 'exist'}; init never overwrites a file, so nothing was written (move ${existing.length === 1 ? 'it' : 'them'} away, or pass another --out)`,
      2
    )
  }
}

function stat(path: string): Stats | null {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}

/** Write every file or none: each is created exclusively, and a failure removes what was created. */
function writeAll(outDir: string, files: [string, string, string][]): void {
  mkdirSync(outDir, { recursive: true })
  const created: string[] = []
  for (const [path, text, shown] of files) {
    try {
      writeFileSync(path, text, { flag: 'wx' })
      created.push(path)
    } catch (error) {
      for (const done of created) unlinkSync(done)
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EEXIST') throw new InitError(`${shown} already exists; init never overwrites a file, so nothing was written`, 2)
      throw new InitError(`cannot write ${shown}: ${(error as Error).message}; nothing was written`, 1)
    }
  }
}

/** The tools, with every secret of the config redacted from what the server said (names kept). */
async function listTools(config: ServerConfig, secrets: string[]): Promise<McpTool[]> {
  const signal = AbortSignal.timeout(CONNECT_TIMEOUT_MS)
  let session: McpSession
  try {
    session = await createSessionFactory(config, { requestTimeoutMs: CONNECT_TIMEOUT_MS }).open(signal)
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${CONNECT_TIMEOUT_MS / 1000} s` : (error as Error).message
    const tail = error instanceof ServerError && error.stderrTail ? `\nserver stderr:\n${error.stderrTail}` : ''
    throw new InitError(redactText(`cannot list the tools of the server (--server-config): ${reason}${tail}`, secrets), 1)
  }
  try {
    return session.tools.map((tool) => ({ ...redactDeep(tool, secrets), name: tool.name }))
  } finally {
    await session.close()
  }
}

/**
 * Where the editor finds the schema: a path relative to the suite when a copy is reachable from
 * it inside the same repository (this package installed in node_modules, or this package's own
 * clone), else the published URL (a relative path would break once the suite is committed).
 */
export function schemaReference(outDir: string, schemaFile = SCHEMA_FILE): string {
  let dir = outDir
  for (;;) {
    const candidates = [join(dir, 'node_modules', PACKAGE_NAME, schemaFile)]
    if (isThisPackage(dir)) candidates.unshift(join(dir, schemaFile))
    for (const candidate of candidates) if (stat(candidate)?.isFile()) return toPosix(relative(outDir, candidate))
    const parent = dirname(dir)
    if (stat(join(dir, '.git')) || parent === dir) return SCHEMA_URL.replace(/eval-cases\.schema\.json$/, basename(schemaFile))
    dir = parent
  }
}

function isThisPackage(dir: string): boolean {
  try {
    // Bounded and regular-only: a package.json planted as a FIFO or a device must not hang init.
    return (JSON.parse(readBoundedFile(join(dir, 'package.json'), FileLimits.suite)) as { name?: unknown }).name === PACKAGE_NAME
  } catch {
    return false
  }
}

function findUp(start: string, marker: string): string | null {
  let dir = resolve(start)
  for (;;) {
    if (stat(join(dir, marker))) return dir
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}

const toPosix = (path: string) => path.split(sep).join('/')

/** The text parses back to exactly what was built (so every string was quoted safely). */
function verifyRoundTrip(text: string, doc: Document, path: string): void {
  let back: unknown
  try {
    back = parse(text, { uniqueKeys: true })
  } catch (error) {
    throw new Error(`internal error: ${path} as generated is not valid YAML: ${(error as Error).message}`)
  }
  if (!isDeepStrictEqual(back, doc.toJS())) throw new Error(`internal error: ${path} as generated does not read back as it was built`)
}

/** The suite reads back as built, and loads as a suite (the JSON Schema and every other check). */
function verifySuite(text: string, doc: Document, path: string): void {
  verifyRoundTrip(text, doc, path)
  try {
    parseSuite(text, path)
  } catch (error) {
    if (error instanceof ConfigError) throw new Error(`internal error: ${path} as generated is not a valid suite:\n${error.message}`)
    throw error
  }
}

/** The evals/v1 suite reads back as built, and loads as one (its JSON Schema and every other check). */
function verifyEvalsV1Suite(text: string, doc: Document, path: string): void {
  verifyRoundTrip(text, doc, path)
  try {
    parseEvalsV1Suite(text, path, { context: 'manual' })
  } catch (error) {
    if (error instanceof ConfigError) throw new Error(`internal error: ${path} as generated is not a valid evals/v1 suite:\n${error.message}`)
    throw error
  }
}

/** The suite's name: the folder it is written to (`evals`), else the server's. */
function suiteNameOf(outDir: string): string {
  return basename(outDir) || 'mcp-server'
}

function containsSecret(text: string, secrets: string[]): boolean {
  return secrets.filter((s) => s.length >= MIN_SECRET_LENGTH).some((s) => secretForms(s).some((form) => text.includes(form)))
}

/** A word for the shell: as it is when plain, else in single quotes. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`
}

function summary(tools: McpTool[], counts: SuiteCounts, targets: { suite: string; workflow: string }, given: string, written: WrittenConfig, secrets: string[], v1: boolean): string {
  const readOnly = tools.filter((t) => t.annotations?.readOnlyHint === true).length
  const [tests, cases] = v1 ? ['check', 'scenario'] : ['tool test', 'behaviour case']
  const lines = [
    `Listed ${count(tools.length, 'tool')} (${readOnly} read-only${counts.destructive.length ? `, ${counts.destructive.length} destructive` : ''}).`,
    `Wrote ${targets.suite}: ${count(counts.toolTests, tests)}, ${count(counts.cases, cases)} (${counts.negativeCases} negative), ${count(counts.todos, 'TODO')}.`,
    ...(counts.unoffered.length > 0 ? [`No ${cases} for ${someOf(counts.unoffered.map(showName))}: the model is never offered ${counts.unoffered.length === 1 ? 'it' : 'them'} (the suite says why).`] : []),
    `Wrote ${targets.workflow}: a GitHub Actions workflow for it.`
  ]
  if (written.introduced.length > 0) {
    lines.push(
      `Kept out of the files: ${written.introduced.map((i) => `${i.where} (now \${${i.name}})`).join(', ')}; set ${written.introduced.length === 1 ? 'that variable' : 'those variables'} to run it.`
    )
  }
  if (written.absolutePaths.length > 0) lines.push(`Note: the server config has absolute paths (${written.absolutePaths.join(', ')}): on a runner, make them relative to the repository root.`)
  const serverArg = written.fromFile && written.introduced.length === 0 ? given.trim() : JSON.stringify(written.json)
  const suiteFlag = v1 ? `--eval-suite ${shellQuote(targets.suite)}` : `--eval-cases ${shellQuote(targets.suite)}`
  const serverFlag = v1 ? '' : `--server-config ${shellQuote(serverArg)} `
  lines.push(
    '',
    'Next steps:',
    `  1. Edit the TODOs in ${targets.suite}: placeholder arguments, then the drafted prompts and rubrics.`,
    `  2. Run the tool tests, the free layer (no model, no key):`,
    `       ${cliCommand()} ${serverFlag}${suiteFlag} --only-tool-tests`,
    `  3. Run everything with a key: OPENROUTER_API_KEY=… and the same command without --only-tool-tests.`,
    `  4. Move ${targets.workflow} to .github/workflows/mcp-evals.yml and add the repository secrets OPENROUTER_API_KEY${secrets.length ? `, ${secrets.join(', ')}` : ''}.`
  )
  return `${lines.join('\n')}\n`
}
