import type { VisionSettings } from '../config/types.js'
import type { ModelView } from '../results/types.js'
import { compileMatcherPattern } from '../scoring/tool-assertions.js'

/**
 * Model id patterns of models known to take images in chat messages (OpenAI `image_url` content
 * parts), as of late 2025. Searched case-insensitively in the model id after its
 * last `/` (`openai/gpt-4o-mini` → `gpt-4o-mini`), as `vision_models:` entries are. `\b` lets a
 * provider prefix such as Bedrock's `anthropic.` stand before the name. What a list cannot know
 * (a fine-tune, a new release, a local name) is said with `vision: true` on the model's
 * `models:` entry, or a pattern under `vision_models:`; `vision: false` there turns a match off.
 */
export const KNOWN_VISION_MODELS: readonly string[] = [
  // OpenAI: GPT-4o (not its audio, realtime, search, speech models), GPT-4.1, GPT-4 Turbo (not the
  // text-only -preview), GPT-5, o1 (not o1-mini, o1-preview), o3 (not o3-mini), o4-mini.
  String.raw`\b(chat)?gpt-4o(?!.*(audio|realtime|search|transcribe|tts))`,
  String.raw`\bgpt-4\.1`,
  String.raw`\bgpt-4-turbo(?!-preview)`,
  String.raw`\bgpt-5`,
  String.raw`\bo1($|[-:@](?!mini|preview))`,
  String.raw`\bo3($|[-:@](?!mini))`,
  String.raw`\bo4-mini`,
  // Anthropic: every Claude 3 (3, 3.5, 3.7) and Claude 4 model.
  String.raw`\bclaude-3`,
  String.raw`\bclaude-(sonnet|opus|haiku)-4`,
  // Google: Gemini 1.5, 2, 2.5, 3; Gemma 3 (not the text-only 1B).
  String.raw`\bgemini-(1\.5|2|3)`,
  String.raw`\bgemma-?3(?!.*\b1b\b)`,
  // Open-weight vision models, as providers and Ollama name them.
  String.raw`llava`,
  String.raw`pixtral`,
  String.raw`\bqwen[0-9.]*-?vl`,
  String.raw`\bllama-?3\.2-.*vision`,
  String.raw`\bllama-?4`,
  // xAI: Grok vision models and Grok 4.
  String.raw`\bgrok-.*vision`,
  String.raw`\bgrok-4`,
  // Mistral: Small 3.1 and later (API ids 2503, 2506), Medium 3 (2505, 2508).
  String.raw`\bmistral-small-?(3\.[1-9]|2503|2506)`,
  String.raw`\bmistral-medium-?(3|2505|2508)`,
  // Anything that says so in its name (gpt-4-vision-preview, llama-3.2-11b-vision-instruct, grok-2-vision…).
  String.raw`vision`
]

// Ours, not the user's (they use lookaheads RE2 lacks): JavaScript's engine, on a model id.
const KNOWN_REGEXPS = KNOWN_VISION_MODELS.map((pattern) => new RegExp(pattern, 'i'))

/** Whether a model takes images, and what said so. */
export interface VisionVerdict {
  vision: boolean
  source: ModelView['vision_source']
  /** The pattern that matched, for `vision_models` and `known`; null otherwise. */
  pattern: string | null
}

/** A model id without its provider prefix: what follows its last `/`. */
function modelName(model: string): string {
  return model.slice(model.lastIndexOf('/') + 1)
}

/**
 * Whether `model` is sent images: `vision:` on its `models:` entry (true or false) first, then
 * the first `vision_models:` pattern that matches, then the first of KNOWN_VISION_MODELS, else
 * not. Patterns are searched case-insensitively in the id after its last `/`; the suite loader
 * has compiled every `vision_models:` pattern already.
 */
export function visionOf(model: string, settings: VisionSettings): VisionVerdict {
  if (Object.hasOwn(settings.models, model)) return { vision: settings.models[model] === true, source: 'models', pattern: null }
  const name = modelName(model)
  const user = settings.patterns.find((pattern) => compileMatcherPattern(pattern).test(name))
  if (user !== undefined) return { vision: true, source: 'vision_models', pattern: user }
  const known = KNOWN_VISION_MODELS.find((_, i) => KNOWN_REGEXPS[i].test(name))
  if (known !== undefined) return { vision: true, source: 'known', pattern: known }
  return { vision: false, source: 'none', pattern: null }
}
