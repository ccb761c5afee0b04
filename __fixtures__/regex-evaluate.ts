// One evaluation through the library (the harness's evaluateWith) against the regex-bomb server,
// run as its own process by __tests__/hostile-regex.test.ts: a regex that backtracks blocks the
// thread it runs on, and a test in that same thread could not even time out. Prints what the
// test checks, as JSON. The agent fetches the text and answers with it; `tool_error_patterns`
// and `stop_when` are searched in that text.
import type { ServerConfig } from '../src/config/types.js'
import { evaluateWith, fixturePath, suiteOf } from './harness.js'
import { answer, kindOf, steps, toolCalls, toolResults, verdict, type ChatRequestBody } from './scripted-llm.js'

const USER_MODEL = 'u/sim'
const server: ServerConfig = { kind: 'stdio', command: process.execPath, args: [fixturePath('servers/regex-server.mjs')], env: {} }
const cases = `  - id: tool-error
    prompt: Fetch the text.
    rubric: Gives the text.
  - id: dialogue
    simulated_user: { goal: Get the text., max_turns: 2, stop_when: "^(a+)+$" }
    rubric: Gives the text.
`
const extra = `models: [scripted/agent]\nuser_model: ${USER_MODEL}\ntool_error_patterns: ["^(a+)+$", "!$"]\n`

const responder = (request: ChatRequestBody) => {
  const kind = kindOf(request)
  if (kind === 'steps') return steps(request.model)
  if (kind === 'score') return verdict(request.model, 9, 'it gave the text')
  if (request.model === USER_MODEL) return answer(request.model, 'Get me the text.')
  const last = request.messages.map((m) => m.role).lastIndexOf('user')
  const since = request.messages.slice(last + 1)
  if (since.length === 0) return toolCalls(request.model, [{ name: 'evil_text', args: {} }])
  return answer(request.model, toolResults(request).at(-1) ?? '')
}

const { doc } = await evaluateWith({ suite: suiteOf(cases, extra), server, responder })
const runs = doc.runs.map((r) => ({
  case: r.case_id,
  status: r.status,
  error: r.error,
  calls: r.tool_calls.map((c) => ({ name: c.name, is_error: c.is_error, error_pattern: c.error_pattern ?? null })),
  dialogue: r.dialogue ? { ended: r.dialogue.ended, turns: r.dialogue.turns.length } : null
}))
process.stdout.write(JSON.stringify({ runs, tool_errors: doc.summary.tool_errors }) + '\n')
