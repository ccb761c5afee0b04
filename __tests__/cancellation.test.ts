import { describe, expect, test } from '@jest/globals'
import { FAULTY_SERVER, suiteOf } from '../__fixtures__/harness.js'
import { answer, kindOf, startScriptedLlm, steps, toolCalls, userPrompt, verdict, type ChatRequestBody } from '../__fixtures__/scripted-llm.js'
import { parseSuite } from '../src/config/suite.js'
import { executeRuns } from '../src/engine.js'
import { CancelledError } from '../src/execute/cancellation.js'
import { createChatClient } from '../src/llm/chat.js'
import { liveGroups } from '../src/mcp/process-group.js'
import { createSessionFactory } from '../src/mcp/session.js'
import { createGEvalJudge } from '../src/scoring/geval.js'
import { createSemanticMatcher } from '../src/scoring/semantic.js'

async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const SLOW = 60_000

describe('cancelling an evaluation mid-run', () => {
  test('finished runs stay as they were; every other run is cancelled with what it was waiting for', async () => {
    // fast finishes; slow-model waits for the model; hang-tool waits for a tool that never
    // answers; slow-judge waits for its judge; queued-a takes fast's slot and waits for the model,
    // which leaves queued-b waiting for a slot (concurrency 4).
    const cases = ['fast', 'slow-model', 'hang-tool', 'slow-judge', 'queued-a', 'queued-b'].map((id) => `  - id: ${id}\n    prompt: case ${id}\n    rubric: r\n`).join('')
    const llm = await startScriptedLlm((request: ChatRequestBody) => {
      const kind = kindOf(request)
      if (kind === 'steps') return steps(request.model)
      if (kind === 'score') return { ...verdict(request.model, 9, 'good'), delayMs: request.messages[0].content?.includes('case slow-judge') ? SLOW : 0 }
      const prompt = userPrompt(request)
      if (prompt.includes('slow-model')) return { ...answer(request.model, 'late'), delayMs: SLOW }
      if (prompt.includes('hang-tool') && !request.messages.some((m) => m.role === 'tool')) return toolCalls(request.model, [{ name: 'hang', args: {} }])
      if (prompt.includes('queued')) return { ...answer(request.model, 'queued answer'), delayMs: SLOW }
      return answer(request.model, `answer to ${prompt}`)
    })
    try {
      const suite = parseSuite(suiteOf(cases), 'test.yaml')
      const chat = createChatClient({ baseURL: llm.url, apiKey: 'sk-test', maxRetries: 0 })
      const controller = new AbortController()
      const finished: string[] = []
      const running = executeRuns(
        suite,
        { maxSteps: 5, concurrency: 4, timeoutSeconds: 120, baseUrl: llm.url, today: '2026-12-01' },
        {
          llm: chat,
          judge: createGEvalJudge(chat, suite.judge_model),
          semantic: createSemanticMatcher(chat, suite.judge_model),
          sessions: createSessionFactory(FAULTY_SERVER, { probeTimeoutMs: 3000, requestTimeoutMs: 120_000 }),
          cancel: controller.signal,
          onRunFinished: (run) => finished.push(run.case_id)
        }
      )
      const asked = (kind: string, text: string) => llm.requests.some((r) => kindOf(r) === kind && JSON.stringify(r.messages).includes(text))
      await waitFor(
        () => finished.includes('fast') && asked('agent', 'case slow-model') && asked('score', 'case slow-judge') && asked('agent', 'case hang-tool') && asked('agent', 'case queued-a'),
        'every run to be busy'
      )
      // The hang tool is called right after the model asked for it.
      await new Promise((r) => setTimeout(r, 300))
      const requestsBefore = llm.requests.length
      const cancelledAt = Date.now()
      controller.abort(new CancelledError('SIGINT', new Date().toISOString()))
      const { runs } = await running
      const shutdownMs = Date.now() - cancelledAt

      const byCase = Object.fromEntries(runs.map((r) => [r.case_id, r]))
      expect(byCase.fast).toMatchObject({ status: 'passed', success: true, cancelled: null, final_output: 'answer to case fast' })
      expect(byCase['slow-model'].cancelled).toMatchObject({ signal: 'SIGINT', waiting_for: 'the model (openai/gpt-4o-mini)' })
      expect(byCase['hang-tool'].cancelled).toMatchObject({ waiting_for: "the tool 'hang'" })
      expect(byCase['hang-tool'].tool_calls.map((c) => c.name)).toEqual(['hang'])
      expect(byCase['slow-judge'].cancelled).toMatchObject({ waiting_for: 'the judge (openai/gpt-4o-mini)' })
      expect(byCase['slow-judge'].final_output).toBe('answer to case slow-judge')
      expect(byCase['queued-b'].cancelled).toMatchObject({ waiting_for: 'a free slot' })
      expect(byCase['queued-b'].llm_calls).toEqual([])
      for (const id of ['slow-model', 'hang-tool', 'slow-judge', 'queued-a', 'queued-b']) {
        // The agent of slow-judge had finished: only its verdict is missing.
        expect(byCase[id]).toMatchObject({ status: 'cancelled', success: false, stop_reason: id === 'slow-judge' ? 'final_answer' : 'cancelled', error: null, judge: null })
        expect(byCase[id].metrics[0].reason).toMatch(/^Not judged: cancelled by SIGINT while waiting for /)
      }
      // Nothing new was asked of the model after the cancel, and no server is left running.
      expect(llm.requests.length).toBe(requestsBefore)
      expect(liveGroups()).toEqual([])
      // Far below the 60 s the slow replies would take (a generous bound for a loaded machine).
      expect(shutdownMs).toBeLessThan(10_000)
    } finally {
      await llm.close()
    }
  })
})
