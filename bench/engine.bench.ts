// Engine throughput: 100 runs × (2 agent turns + judge) against a real stdio server and the
// scripted LLM answering every request after a fixed delay, at concurrency 1, 4 and 16.
// Each configuration runs in its own process so peak RSS is its own.
//
//   npm run bench                      (a minimal Python server, 200 ms LLM delay)
//   npm run bench -- --server node     (a minimal Node.js server)
//   npm run bench -- --server example  (the example server, built on the MCP SDK)
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { parseSuite } from '../src/config/suite.js'
import type { ServerConfig } from '../src/config/types.js'
import { runEvaluation } from '../src/engine.js'
import { createChatClient, type ChatClient } from '../src/llm/chat.js'
import { createSessionFactory } from '../src/mcp/session.js'
import { createGEvalJudge } from '../src/scoring/geval.js'
import { createSemanticMatcher } from '../src/scoring/semantic.js'
import { here, round, startLlmProcess } from './processes.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100' },
    delay: { type: 'string', default: '200' },
    server: { type: 'string', default: 'python' },
    concurrency: { type: 'string' }
  }
})
const RUNS = Number(values.runs)
const DELAY_MS = Number(values.delay)
// The pyenv shim costs ~200 ms per start; the system interpreter ~40 ms.
const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'
const SERVERS: Record<string, { command: string; args: string[]; tool: { name: string; args: unknown } }> = {
  python: { command: python, args: ['-S', here('minimal_server.py')], tool: { name: 'lookup', args: { key: 'k' } } },
  node: { command: process.execPath, args: [here('minimal-server.mjs')], tool: { name: 'lookup', args: { key: 'k' } } },
  example: { command: process.execPath, args: [here('../examples/server/server.mjs')], tool: { name: 'get_weather', args: { city: 'Paris' } } }
}

interface Figures {
  concurrency: number
  wall_s: number
  ideal_s: number
  ratio: number
  llm_calls: number
  spawn_ms: number
  list_ms: number
  client_latency_ms: number
  harness_cpu_ms_per_run: number
  peak_rss_mb: number
  passed: number
}

async function measure(concurrency: number): Promise<Figures> {
  const chosen = SERVERS[values.server ?? 'python']
  if (!chosen) throw new Error(`--server must be one of ${Object.keys(SERVERS).join(', ')}`)
  const { tool } = chosen
  const llm = await startLlmProcess(DELAY_MS, tool)
  const cases = Array.from({ length: RUNS / 10 }, (_, i) => `  - {id: c${i}, prompt: "question ${i}", rubric: "answers"}\n`).join('')
  const models = Array.from({ length: 10 }, (_, i) => `m/${i}`).join(', ')
  const suite = parseSuite(`models: [${models}]\nsystem_prompts: {d: "be brief"}\ncases:\n${cases}`, 'bench.yaml')
  const server: ServerConfig = { kind: 'stdio', command: chosen.command, args: chosen.args, env: {} }

  // Count the time every LLM request spends with the model: the work no harness can remove.
  const http = createChatClient({ baseURL: llm.url, apiKey: 'bench', maxRetries: 0 })
  let llmTimeMs = 0
  let llmCalls = 0
  const chat: ChatClient = {
    async complete(request, signal) {
      const response = await http.complete(request, signal)
      llmTimeMs += response.latency_ms
      llmCalls++
      return response
    }
  }
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  const doc = await runEvaluation(
    suite,
    server,
    { maxSteps: 10, concurrency, timeoutSeconds: 120, baseUrl: llm.url, today: '2026-11-30' },
    { llm: chat, judge: createGEvalJudge(chat, 'judge/m'), semantic: createSemanticMatcher(chat, 'judge/m'), sessions: createSessionFactory(server) }
  )
  const wall = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  await llm.close()
  // A run is at least its own LLM calls in sequence: two agent turns and a judge call, plus the
  // one-off evaluation steps that the first judged run waits for.
  // The model's own time is the fixed delay; what the client measures on top (HTTP, parsing,
  // a busy event loop) is harness overhead, so it does not count toward the ideal.
  const modelTime = (llmCalls * DELAY_MS) / 1000
  const longestRun = ((3 + 1) * DELAY_MS) / 1000
  const ideal = Math.max(modelTime / concurrency, longestRun)
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
  return {
    concurrency,
    wall_s: round(wall, 2),
    ideal_s: round(ideal, 2),
    ratio: round(wall / ideal, 3),
    llm_calls: llmCalls,
    spawn_ms: round(mean(doc.runs.map((r) => r.server.connect_ms ?? 0)), 1),
    list_ms: round(mean(doc.runs.map((r) => r.server.list_ms ?? 0)), 1),
    client_latency_ms: round(llmTimeMs / llmCalls, 1),
    harness_cpu_ms_per_run: round((cpu.user + cpu.system) / 1000 / RUNS, 1),
    peak_rss_mb: round(process.resourceUsage().maxRSS / 1024, 1),
    passed: doc.summary.passed
  }
}

if (values.concurrency) {
  process.stdout.write(JSON.stringify(await measure(Number(values.concurrency))) + '\n')
} else {
  process.stdout.write(`engine benchmark: ${RUNS} runs, LLM delay ${DELAY_MS} ms, ${values.server} stdio server, node ${process.version}\n\n`)
  process.stdout.write('concurrency | wall s | ideal s | wall/ideal | LLM calls | LLM latency seen ms | spawn+connect ms/run | tool listing ms/run | harness CPU ms/run | peak RSS MB | passed\n')
  process.stdout.write('---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---:\n')
  for (const c of [1, 4, 16]) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2), '--concurrency', String(c)], { encoding: 'utf8' })
    if (child.status !== 0) throw new Error(child.stderr)
    const f = JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as Figures
    process.stdout.write(
      `${f.concurrency} | ${f.wall_s} | ${f.ideal_s} | ${f.ratio} | ${f.llm_calls} | ${f.client_latency_ms} | ${f.spawn_ms} | ${f.list_ms} | ${f.harness_cpu_ms_per_run} | ${f.peak_rss_mb} | ${f.passed}/${RUNS}\n`
    )
  }
}
