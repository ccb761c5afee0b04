import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { evaluateWith, suiteOf } from '../__fixtures__/harness.js'
import { judgedOutput, modelMarker, modelViewServer } from '../__fixtures__/model-view.js'
import { answer, kindOf, scriptedBrain, steps, verdict, type AgentScript, type ChatRequestBody, type Responder } from '../__fixtures__/scripted-llm.js'
import { logText } from '../__fixtures__/servers/model-view-server.mjs'
import { GOAL_REACHED } from '../src/agent/simulated-user.js'
import type { ServerConfig } from '../src/config/types.js'
import type { RunResult } from '../src/results/types.js'

// max_tool_result_chars bounds what the other models of a dialogue are shown of the assistant's
// answers (issue 15): the judge of a turn (the dialogue so far is its Input) and the simulated
// user (each answer comes to it as a user message). The real engine, a real fixture process,
// and a scripted LLM whose request bodies are asserted as the provider would get them.

let stateDir: string
let server: ServerConfig
beforeAll(() => {
  // No ${RUN_DIR}: these runs do not use the server's state, and leave no run directory.
  stateDir = mkdtempSync(join(tmpdir(), 'model-view-conversation-'))
  server = modelViewServer([`STATE_FILE=${join(stateDir, 'state.json')}`])
})
afterAll(() => rmSync(stateDir, { recursive: true, force: true }))

const passAll = () => 9
const LIMIT = 'max_tool_result_chars: 5000\n'

/** The GEval score requests whose Input (the dialogue so far) starts with the user's first message. */
function dialogueJudgeRequests(llm: { requests: ChatRequestBody[] }, firstUser: string): ChatRequestBody[] {
  return llm.requests.filter((r) => kindOf(r) === 'score' && (r.messages[0].content ?? '').includes(`\nInput:\nUser: ${firstUser}`))
}

/** The Input a GEval score request showed the judge (laid out by scoringPrompt in src/scoring/geval.ts). */
function judgedInput(request: ChatRequestBody): string {
  const text = request.messages[0].content ?? ''
  const start = text.indexOf('\nInput:\n') + '\nInput:\n'.length
  return text.slice(start, text.indexOf('\n\nActual Output:\n', start))
}

const onlyRun = (runs: RunResult[]): RunResult => {
  expect(runs).toHaveLength(1)
  return runs[0]
}

describe('a scripted conversation: the judge of a later turn is shown the earlier answers bounded', () => {
  const QUOTE = logText(7000)
  const scripts: Record<string, AgentScript> = {
    'Quote the whole service log': { turns: [], answer: QUOTE },
    'Now sum it up': { turns: [], answer: 'The service is healthy.' }
  }
  const CASE = `  - id: quote-then-sum
    turns:
      - user: Quote the whole service log.
      - user: Now sum it up in one line.
        rubric: Sums up the log in one line.
`

  test("turn 2's judge gets the 7,000-character turn-1 answer cut to 5,000 and the marker; the run says so; the record keeps it whole", async () => {
    const { doc, llm } = await evaluateWith({ suite: suiteOf(CASE, `models: [scripted/agent]\n${LIMIT}`), server, responder: scriptedBrain(scripts, passAll) })
    const run = onlyRun(doc.runs)
    expect(run.status).toBe('passed')

    const judged = dialogueJudgeRequests(llm, 'Quote the whole service log.')
    expect(judged).toHaveLength(1)
    expect(judgedInput(judged[0])).toBe(`User: Quote the whole service log.\n\nAssistant: ${QUOTE.slice(0, 5000)}${modelMarker(2000, 7000, 5000)}\n\nUser: Now sum it up in one line.`)
    expect(judgedOutput(judged[0])).toBe('The service is healthy.')
    // Not one judge request carried the part that was cut.
    expect(JSON.stringify(llm.requests.filter((r) => kindOf(r) === 'score'))).not.toContain(QUOTE.slice(5000, 5200))

    expect(run.model_view).toMatchObject({ max_tool_result_chars: 5000, cut_results: 0 })
    expect(run.model_view!.notes).toEqual(['1 answer of the dialogue given to the judge was cut to 5,000 characters.'])
    expect(run.dialogue!.turns.map((t) => t.final_output)).toEqual([QUOTE, 'The service is healthy.'])
  })

  test('the control, max_tool_result_chars: 0: the judge gets the answer whole, and nothing is said to be cut', async () => {
    const { doc, llm } = await evaluateWith({ suite: suiteOf(CASE, 'models: [scripted/agent]\nmax_tool_result_chars: 0\n'), server, responder: scriptedBrain(scripts, passAll) })
    const [judged] = dialogueJudgeRequests(llm, 'Quote the whole service log.')
    expect(judgedInput(judged)).toBe(`User: Quote the whole service log.\n\nAssistant: ${QUOTE}\n\nUser: Now sum it up in one line.`)
    expect(onlyRun(doc.runs).model_view!.notes).toEqual([])
  })

  test('three turns, two long answers: each judge gets every long answer cut (its Input and its own Actual Output), and the note counts both', async () => {
    const LATER = logText(6000)
    const three: Record<string, AgentScript> = {
      ...scripts,
      'And quote it again': { turns: [], answer: LATER }
    }
    const cases = `  - id: three
    turns:
      - user: Quote the whole service log.
      - user: Now sum it up in one line.
        rubric: Sums up the log in one line.
      - user: And quote it again.
        rubric: Quotes the log.
`
    const { doc, llm } = await evaluateWith({ suite: suiteOf(cases, `models: [scripted/agent]\n${LIMIT}`), server, responder: scriptedBrain(three, passAll) })
    const run = onlyRun(doc.runs)
    expect(run.status).toBe('passed')
    const judged = dialogueJudgeRequests(llm, 'Quote the whole service log.')
    expect(judged).toHaveLength(2)
    const cutQuote = `${QUOTE.slice(0, 5000)}${modelMarker(2000, 7000, 5000)}`
    const third = judged.find((r) => judgedInput(r).endsWith('User: And quote it again.'))!
    expect(judgedInput(third)).toBe(`User: Quote the whole service log.\n\nAssistant: ${cutQuote}\n\nUser: Now sum it up in one line.\n\nAssistant: The service is healthy.\n\nUser: And quote it again.`)
    expect(judgedOutput(third)).toBe(`${LATER.slice(0, 5000)}${modelMarker(1000, 6000, 5000)}`)
    expect(run.model_view!.notes).toEqual(['2 answers of the dialogue given to the judge were cut to 5,000 characters.'])
  })

  test('a surrogate pair across the limit is not split: the cut keeps 4,999 characters and says 2,001 were left out', async () => {
    const EMOJI = `${'a'.repeat(4999)}😀${'b'.repeat(1999)}`
    expect(EMOJI.length).toBe(7000)
    const { llm } = await evaluateWith({
      suite: suiteOf(CASE, `models: [scripted/agent]\n${LIMIT}`),
      server,
      responder: scriptedBrain({ ...scripts, 'Quote the whole service log': { turns: [], answer: EMOJI } }, passAll)
    })
    const [judged] = dialogueJudgeRequests(llm, 'Quote the whole service log.')
    expect(judgedInput(judged)).toBe(`User: Quote the whole service log.\n\nAssistant: ${'a'.repeat(4999)}${modelMarker(2001, 7000, 5000)}\n\nUser: Now sum it up in one line.`)
  })
})

describe('a simulated user is shown each answer bounded', () => {
  const USER_MODEL = 'u/sim'
  const QUOTE = logText(7000)
  const CASE = `  - id: sim-quote
    simulated_user:
      goal: Get the whole service log quoted.
      max_turns: 3
    rubric: The log is quoted.
`
  /** The user model asks for the log, then says its goal is reached; the agent quotes 7,000 characters; the judge gives 9. */
  function brain() {
    const userRequests: ChatRequestBody[] = []
    const responder: Responder = (request) => {
      const kind = kindOf(request)
      if (kind === 'steps') return steps(request.model)
      if (kind === 'score') return verdict(request.model, 9, 'quoted')
      if (request.model === USER_MODEL) {
        userRequests.push(request)
        const written = request.messages.filter((m) => m.role === 'assistant').length
        return answer(request.model, written === 0 ? 'Quote the whole service log.' : GOAL_REACHED)
      }
      return answer(request.model, QUOTE)
    }
    return { responder, userRequests }
  }
  const suite = (limit: string) => suiteOf(CASE, `models: [scripted/agent]\nuser_model: ${USER_MODEL}\n${limit}`)

  test("the user model's next request carries the 7,000-character answer cut to 5,000 and the marker; the judge too", async () => {
    const { responder, userRequests } = brain()
    const { doc, llm } = await evaluateWith({ suite: suite(LIMIT), server, responder })
    const run = onlyRun(doc.runs)
    expect(run.dialogue).toMatchObject({ kind: 'simulated', ended: 'goal_reached' })
    expect(run.status).toBe('passed')
    expect(userRequests).toHaveLength(2)
    const cut = `${QUOTE.slice(0, 5000)}${modelMarker(2000, 7000, 5000)}`
    // Its own message back as the assistant's, the answer as the user's, cut.
    expect(userRequests[1].messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Quote the whole service log.' },
      { role: 'user', content: cut }
    ])
    // The run's judge: the dialogue's one turn is its Input, the answer (cut) its Actual Output.
    const [judged] = dialogueJudgeRequests(llm, 'Quote the whole service log.')
    expect(judgedInput(judged)).toBe('User: Quote the whole service log.')
    expect(judgedOutput(judged)).toBe(cut)
    expect(run.model_view!.notes).toEqual(['1 answer of the dialogue given to the judge was cut to 5,000 characters.'])
    // The record keeps the answer whole.
    expect(run.final_output).toBe(QUOTE)
  })

  test('the control, max_tool_result_chars: 0: the user model gets the answer whole', async () => {
    const { responder, userRequests } = brain()
    await evaluateWith({ suite: suite('max_tool_result_chars: 0\n'), server, responder })
    expect(userRequests[1].messages.at(-1)).toEqual({ role: 'user', content: QUOTE })
  })
})
