import { addUsage, emptyUsage, type ChatClient } from '../llm/chat.js'
import type { SemanticMatcher } from './golden.js'

/**
 * `arg_match: semantic`: a cheap yes/no question to the judge model, asked once per pair of
 * values and cached. A failed or unclear answer counts as "no". `cancel` aborts the questions in
 * flight when the evaluation is cancelled (the run is then recorded as cancelled, not failed).
 */
export function createSemanticMatcher(llm: ChatClient, model: string, cancel?: AbortSignal): { match: SemanticMatcher; usage: ReturnType<typeof emptyUsage> } {
  const usage = emptyUsage()
  const answers = new Map<string, Promise<boolean>>()
  const ask = async (expected: string, actual: string): Promise<boolean> => {
    const prompt = [
      'Two values were given for the same argument of a tool call.',
      `Expected: ${JSON.stringify(expected)}`,
      `Actual: ${JSON.stringify(actual)}`,
      'Do they mean the same thing for the purpose of that argument? Answer with only "yes" or "no".'
    ].join('\n')
    try {
      const response = await llm.complete({ model, messages: [{ role: 'user', content: prompt }], temperature: 0 }, cancel)
      addUsage(usage, response.usage)
      return /^\W*yes\b/i.test(response.content ?? '')
    } catch {
      return false
    }
  }
  return {
    usage,
    match(expected, actual) {
      const key = JSON.stringify([expected, actual])
      let answer = answers.get(key)
      if (!answer) {
        answer = ask(expected, actual)
        answers.set(key, answer)
      }
      return answer
    }
  }
}
