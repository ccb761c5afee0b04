// The demo model, for `--demo`: the scripted brain `npm run example` and `npm run demo-model` use,
// served in-process. Re-exported from where the example and the tests keep it, so there is one copy.
import { startScriptedLlm, type ScriptedLlm } from '../../__fixtures__/scripted-llm.js'
import { demoBrain } from '../../examples/demo-model/brain.js'

export type DemoModel = ScriptedLlm

/** An OpenAI-compatible endpoint on 127.0.0.1 (a free port) that plays a good model on the bundled example's cases. */
export function startDemoModel(): Promise<DemoModel> {
  return startScriptedLlm(demoBrain)
}
