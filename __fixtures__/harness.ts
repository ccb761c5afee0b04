import { fileURLToPath } from 'node:url'
import { parseSuite } from '../src/config/suite.js'
import type { ServerConfig } from '../src/config/types.js'
import { runEvaluation, type EngineSettings } from '../src/engine.js'
import { createChatClient } from '../src/llm/chat.js'
import { createSessionFactory } from '../src/mcp/session.js'
import type { ResultsDocument, RunResult } from '../src/results/types.js'
import { createGEvalJudge } from '../src/scoring/geval.js'
import { createSemanticMatcher } from '../src/scoring/semantic.js'
import { startScriptedLlm, type Responder, type ScriptedLlm } from './scripted-llm.js'

export const fixturePath = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))

export const EXAMPLE_SERVER: ServerConfig = { kind: 'stdio', command: process.execPath, args: [fixturePath('../examples/server/server.mjs')], env: {} }
export const FAULTY_SERVER: ServerConfig = { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/faulty-server.mjs')], env: {} }
export const LEGACY_SERVER: ServerConfig = { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/legacy-server.mjs')], env: {} }

export interface Evaluation {
  doc: ResultsDocument
  llm: ScriptedLlm
  finished: RunResult[]
}

/** Run the real engine against a real MCP server and the scripted LLM over HTTP. */
export async function evaluateWith(options: {
  suite: string
  server: ServerConfig
  responder: Responder
  settings?: Partial<EngineSettings>
  maxRetries?: number
  llmDelayMs?: number
}): Promise<Evaluation> {
  const llm = await startScriptedLlm(options.responder, { delayMs: options.llmDelayMs })
  try {
    const suite = parseSuite(options.suite, 'test.yaml')
    const chat = createChatClient({ baseURL: llm.url, apiKey: 'sk-test', maxRetries: options.maxRetries ?? 2 })
    const finished: RunResult[] = []
    const settings: EngineSettings = { maxSteps: 10, concurrency: 4, timeoutSeconds: 30, baseUrl: llm.url, today: '2026-11-30', ...options.settings }
    const doc = await runEvaluation(suite, options.server, settings, {
      llm: chat,
      judge: createGEvalJudge(chat, suite.judge_model),
      semantic: createSemanticMatcher(chat, suite.judge_model),
      sessions: createSessionFactory(options.server, { probeTimeoutMs: 3000, requestTimeoutMs: settings.timeoutSeconds * 1000 }),
      onRunFinished: (run) => finished.push(run)
    })
    return { doc, llm, finished }
  } finally {
    await llm.close()
  }
}

/** A one-case suite. */
export function suiteOf(cases: string, extra = ''): string {
  return `${extra}system_prompts:\n  default: You are helpful. Today is {today}.\ncases:\n${cases}`
}
