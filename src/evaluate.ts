import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { summarize } from './aggregate/summarize.js'
import type { RunOptions } from './config/options.js'
import { parseServerConfig, serverSecrets } from './config/server-config.js'
import { loadSuiteFile } from './config/suite.js'
import type { ServerConfig, Suite } from './config/types.js'
import { runEvaluation, type EngineDeps } from './engine.js'
import { createChatClient, type ChatClient } from './llm/chat.js'
import { createSessionFactory } from './mcp/session.js'
import { localDate } from './plan/expand.js'
import { renderMarkdownReport } from './report/markdown.js'
import { RESULTS_VERSION, type ResultsDocument } from './results/types.js'
import { createGEvalJudge } from './scoring/geval.js'
import { redactDeep } from './util/redact.js'
import { TOOL_NAME, TOOL_VERSION } from './version.js'

/** A validated configuration, ready to run. */
export interface Prepared {
  options: RunOptions
  server: ServerConfig
  suite: Suite
  /** Values that must never be written anywhere. */
  secrets: string[]
}

/** Parse and validate everything before any server starts or any model is called. Throws ConfigError. */
export function prepare(options: RunOptions, env: NodeJS.ProcessEnv): Prepared {
  const server = parseServerConfig(options.serverConfig)
  const suite = loadSuiteFile(options.evalCases, {
    models: options.models,
    judgeModel: options.judgeModel,
    envModels: env.EVAL_MODELS,
    envJudgeModel: env.EVAL_JUDGE_MODEL
  })
  return { options, server, suite, secrets: [...serverSecrets(server), options.apiKey].filter((s) => s.length > 0) }
}

export interface EvaluateHooks {
  onRunFinished?: EngineDeps['onRunFinished']
  /** Replace the HTTP chat client (tests and benchmarks use a scripted server instead). */
  llm?: ChatClient
  llmMaxRetries?: number
}

export async function evaluate(prepared: Prepared, hooks: EvaluateHooks = {}): Promise<ResultsDocument> {
  const { options, suite, server } = prepared
  const llm =
    hooks.llm ??
    createChatClient({ baseURL: options.baseUrl, apiKey: options.apiKey || 'none', maxRetries: hooks.llmMaxRetries })
  return runEvaluation(
    suite,
    server,
    {
      filter: options.filter,
      maxSteps: options.maxSteps,
      concurrency: options.concurrency,
      timeoutSeconds: options.timeoutSeconds,
      baseUrl: options.baseUrl,
      today: localDate(new Date())
    },
    {
      llm,
      judge: createGEvalJudge(llm, suite.judge_model),
      sessions: createSessionFactory(server, { requestTimeoutMs: options.timeoutSeconds * 1000 }),
      onRunFinished: hooks.onRunFinished
    }
  )
}

/** The document written when the evaluation could not run at all, so outputs always exist. */
export function fatalDocument(message: string, startedAt = new Date()): ResultsDocument {
  return {
    version: RESULTS_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    started_at: startedAt.toISOString(),
    duration_s: 0,
    passed: false,
    config: null,
    summary: { ...summarize([]), pass_rate: 0 },
    runs: [],
    fatal_error: message
  }
}

/** Write the results document and the report, with every secret redacted. Returns both texts. */
export function writeResults(doc: ResultsDocument, paths: { resultsPath: string; reportPath: string }, secrets: readonly string[]) {
  const safe = redactDeep(doc, secrets)
  const results = `${JSON.stringify(safe, null, 2)}\n`
  const report = renderMarkdownReport(safe)
  for (const [path, text] of [
    [paths.resultsPath, results],
    [paths.reportPath, report]
  ] as const) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text)
  }
  return { document: safe, results, report }
}
