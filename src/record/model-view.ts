import type { AppView } from '../agent/exposure.js'
import type { VisionVerdict } from '../agent/vision.js'
import type { MediaRecord, ModelView } from '../results/types.js'
import { count, wholeNumber } from '../util/words.js'

/** What the engine knows of a run when it writes down what its model was shown. */
export interface ModelViewInputs {
  model: string
  max_tool_result_chars: number
  vision: VisionVerdict
  /** The run's tool calls: how much of each result the model saw, and its media. */
  calls: readonly { result: string; shown_chars: number; media?: MediaRecord[] }[]
  app: AppView
  /** Answers the judge was given cut: the final one, or in a conversation any turn's (its judges see the dialogue). */
  judge_cuts: number
  conversation: boolean
  /** The server's tools kept from this model (evals/v1 `disallowedTools`), in listing order; absent or empty: none. */
  disallowed?: string[]
}

/** The run's ModelView: counts, the app resources kept from the model, and a sentence for each thing it was not shown. */
export function modelViewOf(inputs: ModelViewInputs): ModelView {
  const limit = inputs.max_tool_result_chars
  const cut = inputs.calls.filter((call) => call.shown_chars < call.result.length).length
  const media = inputs.calls.flatMap((call) => call.media ?? [])
  const images = media.filter((m) => m.type === 'image')
  const sent = images.filter((m) => m.sent).length
  const imagesAsText = images.length - sent
  const audio = media.filter((m) => m.type === 'audio').length
  const chars = wholeNumber(limit)
  const notes: string[] = []
  if (cut > 0) notes.push(`${count(cut, 'tool result')} ${cut === 1 ? 'was' : 'were'} cut to ${chars} characters before the model saw ${cut === 1 ? 'it' : 'them'} (max_tool_result_chars).`)
  // One sentence per reason: "the model does not take images" once, not once per image.
  const reasons = new Map<string, number>()
  for (const image of images.filter((m) => !m.sent)) reasons.set(image.reason ?? 'not sent', (reasons.get(image.reason ?? 'not sent') ?? 0) + 1)
  const placeholders = (k: number) => (k === 1 ? 'was shown to the model as a text placeholder' : 'were shown to the model as text placeholders')
  for (const [reason, n] of reasons) notes.push(`${count(n, 'image')} ${placeholders(n)}: ${reason.replace(/\.$/, '')}.`)
  if (audio > 0) notes.push(`${count(audio, 'audio block')} ${placeholders(audio)}.`)
  const disallowed = inputs.disallowed ?? []
  if (disallowed.length > 0) notes.push(`${count(disallowed.length, 'tool')} ${disallowed.length === 1 ? 'was' : 'were'} not offered to this model (disallowedTools): ${disallowed.join(', ')}.`)
  if (inputs.judge_cuts > 0) {
    const which = inputs.conversation ? `${count(inputs.judge_cuts, 'answer')} of the dialogue` : 'The final answer'
    notes.push(`${which} given to the judge ${inputs.judge_cuts === 1 ? 'was' : 'were'} cut to ${chars} characters.`)
  }
  return {
    max_tool_result_chars: limit,
    vision: inputs.vision.vision,
    vision_source: inputs.vision.source,
    vision_pattern: inputs.vision.pattern,
    cut_results: cut,
    images_sent: sent,
    images_as_text: imagesAsText,
    audio_as_text: audio,
    app_resources: inputs.app.app_resources,
    app_only_tools: inputs.app.app_only_tools,
    notes
  }
}
