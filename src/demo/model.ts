// The demo model, for `--demo`: the scripted brain `npm run example` and `npm run demo-model` use,
// served in-process. Re-exported from where the example and the tests keep it, so there is one copy.
import { startScriptedLlm, type ScriptedLlm } from '../../__fixtures__/scripted-llm.js'
import { DEMO_SCRIPTS, demoBrain } from '../../examples/demo-model/brain.js'
import type { EvalCase } from '../results/types.js'

export type DemoModel = ScriptedLlm

/** An OpenAI-compatible endpoint on 127.0.0.1 (a free port) that plays a good model on the bundled example's cases. */
export function startDemoModel(): Promise<DemoModel> {
  return startScriptedLlm(demoBrain)
}

/**
 * The ids of the cases the demo model has no script for: it answers their user messages "I cannot
 * help with that.", so they fail whatever the server does. A conversation needs a script for
 * every scripted turn; a simulated user's messages are the model's own, so it has none.
 */
export function casesUnknownToDemo(cases: readonly EvalCase[]): string[] {
  const known = (message: string) => Object.keys(DEMO_SCRIPTS).some((phrase) => message.includes(phrase))
  return cases
    .filter((c) => {
      if (c.conversation?.kind === 'simulated') return true
      const messages = c.conversation?.kind === 'turns' ? c.conversation.turns.map((t) => t.user) : [c.prompt]
      return !messages.every(known)
    })
    .map((c) => c.id)
}
