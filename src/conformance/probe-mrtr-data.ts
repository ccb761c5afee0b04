import type { Exchange } from './wire-types.js'

/** What the mrtr probe gathered: multi round-trip requests (input_required rounds) on real calls. */
export interface MrtrProbes {
  /** Every call made in search of an input_required answer (the first leg of each), in order. */
  candidates: MrtrCandidate[]
  /** What was not called and why, for the skip messages (`not annotated readOnlyHint: true (probes: safe): a, b`). */
  notes: string[]
  /** The candidates that asked for input, each followed round by round with canned answers. */
  flows: MrtrFlow[]
  /** The rule probes, each a variant of the first round of one flow (`subject`); absent when none asked. */
  variants?: MrtrVariants
}

export type MrtrMethod = 'tools/call' | 'prompts/get' | 'resources/read'

export interface MrtrCandidate {
  method: MrtrMethod
  /** The tool's or prompt's name, or the resource's URI. */
  name: string
  /** Where its arguments came from: `tool test get-forecast`, `arguments from its inputSchema`, `listed prompt`. */
  source: string
  exchange: Exchange
}

export interface MrtrFlow {
  method: MrtrMethod
  name: string
  source: string
  /** The first call, then each retry (new id, inputResponses, requestState echoed), at most MRTR_MAX_ROUNDS + 1 legs. */
  legs: Exchange[]
  /**
   * How the last leg ended: `complete` (a result that is not input_required), `error` (a JSON-RPC
   * error or no answer), `input_required` (still asking after the last round we follow).
   */
  end: 'complete' | 'error' | 'input_required'
}

/** Variants of one flow's first retry, each on its own request (the same call, the same first answer). */
export interface MrtrVariants {
  /** Which flow they vary (index into flows) and its label. */
  subject: number
  /** The retry with requestState altered; absent when no flow's first answer carried a requestState. */
  tampered?: { flow: number; exchange: Exchange }
  /** The retry with requestState (when given) but without inputResponses. */
  missing: Exchange
  /** The retry with every inputResponses value of the wrong shape (a number). */
  invalid: Exchange
  /** The first call again, declaring no client capabilities at all. */
  noCapabilities: Exchange
  /** A fresh first call, then its retry with the right inputResponses plus keys the server never asked for. */
  extraParams: { first: Exchange; retry?: Exchange }
}
