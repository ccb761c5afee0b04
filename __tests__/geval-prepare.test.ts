import { describe, expect, test } from '@jest/globals'
import type { ChatClient, ChatResponse } from '../src/llm/chat.js'
import { createGEvalJudge } from '../src/scoring/geval.js'

/** A model that answers every steps request on the next turn of the event loop, counting how many are in flight at once. */
function countingModel() {
  let inFlight = 0
  let most = 0
  const prompts: string[] = []
  const client: ChatClient = {
    async complete(request) {
      inFlight++
      most = Math.max(most, inFlight)
      prompts.push(String(request.messages[0]?.content))
      await new Promise((resolve) => setTimeout(resolve, 5))
      inFlight--
      const response: ChatResponse = { content: '{"steps": ["check it"]}', tool_calls: [], finish_reason: 'stop', usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }, logprobs: null, latency_ms: 5 }
      return response
    }
  }
  return { client, most: () => most, prompts }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 200))

describe('generating the evaluation steps at the start', () => {
  test('asks once per distinct rubric, at most `concurrency` at once (no burst of one request per rubric)', async () => {
    const model = countingModel()
    const judge = createGEvalJudge(model.client, 'judge/m')
    const rubrics = Array.from({ length: 12 }, (_, i) => `rubric ${i}`)
    judge.prepare([...rubrics, ...rubrics], undefined, 3)
    await settle()
    expect(model.prompts).toHaveLength(12)
    expect(model.most()).toBe(3)
    expect(judge.stepGenerationUsage.total_tokens).toBe(12 * 15)
  })

  test('a cancelled evaluation asks for nothing', async () => {
    const model = countingModel()
    const controller = new AbortController()
    controller.abort()
    createGEvalJudge(model.client, 'judge/m').prepare(['a', 'b'], controller.signal, 2)
    await settle()
    expect(model.prompts).toHaveLength(0)
  })
})
