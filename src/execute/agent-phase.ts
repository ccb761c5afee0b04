import { startTranscript, type Transcript } from '../agent/run-agent.js'
import type { VisionVerdict } from '../agent/vision.js'
import type { DialogueRun } from '../agent/conversation.js'
import type { RunInputs } from '../agent/input-answers.js'
import type { McpSession } from '../mcp/session.js'
import type { RunSpec } from '../plan/expand.js'
import type { InputRound, RunSkip } from '../results/types.js'

/** What a run's agent loop left: the transcript and what the record and the scores need of its session. */
export interface AgentPhase {
  transcript: Transcript
  session: Pick<McpSession, 'era' | 'protocolVersion' | 'timings' | 'tools' | 'resources'> | null
  duration_s: number
  /** The run's rubric can be judged: the answer (a conversation's last answer, the dialogue done) is there. */
  judgeable: boolean
  /** Set when the run never started: the spend had reached max_cost_usd. */
  skipped?: RunSkip
  /** A conversation's outcome; null for a single-turn case (or a run that never started). */
  dialogue: DialogueRun | null
  /** How the run answered the server's questions; null when it never started. */
  inputs: RunInputs | null
  /** What the server asked outside any tool call (server-filesystem lists the roots as it starts). */
  outsideRounds?: InputRound[]
}

/** What the model under test is shown, for one run: the result limit, whether it takes images, and what counts as a tool error. */
export interface RunView {
  max_tool_result_chars: number
  vision: VisionVerdict
  tool_error_patterns: string[]
  /** The tools this model is not offered (evals/v1 `disallowedTools`, `suite.disallowed_tools[model]`); empty: none. */
  disallowed_tools: string[]
  /** Whether the record keeps each call's structuredContent (`structured_content`): an evals/v1 suite's runs, or a case whose turns carry evals/v1 expectations. */
  structured_content: boolean
}

/** The phase of a run that never reached its agent loop, its transcript filled in by `fill`. */
export function notRunPhase(spec: RunSpec, systemPrompt: string, fill: (t: Transcript) => void): AgentPhase {
  const empty = emptyTranscript(spec, systemPrompt)
  fill(empty)
  return { transcript: empty, session: null, duration_s: 0, judgeable: false, dialogue: null, inputs: null }
}

/** The transcript of a run that never reached its agent loop: the system prompt and the (first) user message. */
function emptyTranscript(spec: RunSpec, systemPrompt: string): Transcript {
  const transcript = startTranscript(systemPrompt)
  transcript.messages.push({ role: 'user', content: spec.case.prompt })
  transcript.stop_reason = 'error'
  return transcript
}
