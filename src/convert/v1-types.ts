import { DEFAULT_SYSTEM_PROMPTS } from '../config/evals-v1-matrix.js'

// An evals/v1 suite as written: the loader's shapes (config/evals-v1-raw.ts), which read.ts has
// checked the file against, under the names the converters use.
export type { RawV1Check as V1Check, RawV1Client as V1Client, RawV1Flow as V1Flow, RawV1Scenario as V1Scenario, RawV1Suite as V1Suite, RawV1Turn as V1Turn } from '../config/evals-v1-raw.js'
export { EVALS_V1_API_VERSION as API_VERSION } from '../config/evals-v1-raw.js'
export { LOCAL_TARGET } from '../results/evals-v1.js'

/** evals/v1's system prompt when a flow gives none (agentRunner.ts). */
export const V1_DEFAULT_SYSTEM_PROMPT = DEFAULT_SYSTEM_PROMPTS.default
