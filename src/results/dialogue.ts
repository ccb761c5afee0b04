import type { TokenUsage } from './primitives.js'
import type { GoldenAssertions, JudgeDetails, ToolAssertions } from './scoring.js'
import type { InputKind, Json } from './suite.js'

/** Conversations and server input: a multi-turn run's turns, and what the server asked the client. */

/** One question the server asked the client, and our answer. */
export interface InputExchange {
  /** input_required: the key in `inputRequests`; a legacy server request: its JSON-RPC id. */
  key: string
  /** `elicitation/create`, `sampling/createMessage`, `roots/list`, or whatever the server asked. */
  method: string
  /** What it asked: the elicitation's message, the sampling request's last message (cut to 500 characters). */
  summary: string
  /** The request's params as sent (redacted; strings cut to 2,000 characters, 20,000 characters and 1,000 values in all, `[…]` past that). */
  params: Json
  /** What we answered: the result object, or null when we answered with an error. */
  response: Json | null
  /** Our JSON-RPC error instead of a result (legacy: a method we do not answer). */
  error: { code: number; message: string } | null
  /**
   * How it was answered, in a phrase: "rule 1 (match 'address'): accept", "no rule matched:
   * declined", "the model under test (openai/gpt-4o)", "the case's text", "the case's roots",
   * "not declared: refused", "max_input_rounds reached: refused", "url mode not declared: refused".
   */
  answered_by: string
  /** A configuration problem found while answering (accepted content that fails the requested schema); null when none. */
  problem: string | null
}

/** One round of a call: the server asked (input_required or server requests), we answered, and the call went on. */
export interface InputRound {
  /** 1-based, within its call. */
  round: number
  via: 'input_required' | 'server_request'
  /** input_required: the JSON-RPC id of the request that was answered with input_required; null for server requests. */
  request_id: string | number | null
  /** input_required: the id of the retry that carried our inputResponses; null when there was none (the rounds ran out, the call failed). */
  retry_id: string | number | null
  /** input_required: the requestState the server sent (cut to 200 characters); null when it sent none. */
  request_state: string | null
  /** Whether the retry echoed requestState byte for byte (and omitted it when none was given); null when there was no retry. */
  request_state_echoed: boolean | null
  exchanges: InputExchange[]
}

/** A run's input requests against what its case expected. */
export interface InputsVerdict {
  /** The client capabilities this run declared. */
  declared: InputKind[]
  /** expect_input_requests. */
  expected: InputKind[]
  /** What the server asked for over the whole run, in the order first asked. */
  asked: InputKind[]
  /** Rounds over every call. */
  rounds: number
  /** Elicitations no rule matched (declined). */
  unmatched: number
  passed: boolean
  /** Why it failed: an expected request never came, content that fails the requested schema, too many rounds. Empty when it passed. */
  reasons: string[]
  /** What the server asked outside any tool call (server-filesystem lists the roots as it starts); counted in `asked` and `rounds`. */
  outside_calls: InputRound[]
}

/** One user turn of a multi-turn run, with its own assertions and verdict. */
export interface TurnResult {
  /** 1-based. */
  index: number
  user: string
  /** Written by the simulated user. */
  simulated: boolean
  final_output: string | null
  stop_reason: 'final_answer' | 'max_steps' | 'error' | 'cancelled'
  /** This turn's calls are `tool_calls[first_call .. first_call + calls)` of the run. */
  first_call: number
  calls: number
  /** Agent LLM calls of this turn (max_steps applies per turn). */
  llm_calls: number
  /** Null when the turn sets no required_tools. */
  tool_assertions: ToolAssertions | null
  /**
   * The turn's golden-set checks, then its evals/v1 expectations' (`tools`, one per entry;
   * `result`; `widget`), checked as the turn ended on every call so far. Null when the turn sets
   * neither (or it did not finish: its expectations were not checked).
   */
  golden_assertions: GoldenAssertions | null
  /** The turn's rubric verdict (the judge saw the dialogue up to this turn); null when the turn has no rubric or was not judged. */
  judge: JudgeDetails | null
  passed: boolean
}

/** How a multi-turn run went, turn by turn. */
export interface DialogueResult {
  kind: 'turns' | 'simulated'
  turns: TurnResult[]
  /**
   * Why the dialogue ended: `script_done` (every scripted turn ran), `goal_reached` (the simulated
   * user said so), `stop_when` (the answer matched), `max_turns`, or `stopped` (a turn ended
   * without a final answer: an error, max_steps, a cancel; or the simulated user failed to write
   * the next message).
   */
  ended: 'script_done' | 'goal_reached' | 'stop_when' | 'max_turns' | 'stopped'
  /** The simulated user's model and what it spent (counted with the judge's); null for scripted turns. */
  user_model: string | null
  user_usage: TokenUsage | null
  /** How long the simulated user's LLM calls took, summed (ms); null for scripted turns. */
  user_latency_ms: number | null
  /** Every turn passed (the overall rubric is the run's judge). */
  turns_passed: boolean
}
