import { runConversation } from '../agent/conversation.js'
import type { RunInputs } from '../agent/input-answers.js'
import { runTurn, type Transcript } from '../agent/run-agent.js'
import type { ChatClient } from '../llm/chat.js'
import type { RunSpec } from '../plan/expand.js'
import { notRunPhase, type AgentPhase, type RunView } from './agent-phase.js'
import { cancellationOf, type RunAbort } from './cancellation.js'
import type { LayeredRun } from './compose-layers.js'
import type { EngineDeps, EngineSettings } from './engine-types.js'
import type { OpenedSession } from './open-run.js'

/** What one run carries from before its server starts to its agent loop. */
export interface RunContext {
  layers: LayeredRun
  /** Started before the server, so a sampling call is recorded wherever it comes. */
  transcript: Transcript
  /** The model under test's client (traced when the run is). */
  chat: ChatClient
  /** The run's one abort (its session was opened on it): timeout_seconds, or the job's cancel. */
  run: RunAbort
  /** The agent loop is over: its slot may go to the next run while this run's server exits. */
  leaveSlot: () => void
  inputs: RunInputs
  view: RunView
}

/** The run in its pool slot: the agent loop (or the conversation) over the session its layers wrap, within timeout_seconds. */
export async function runInSlot(spec: RunSpec, opened: OpenedSession, settings: EngineSettings, deps: EngineDeps, context: RunContext): Promise<AgentPhase> {
  const { layers, transcript, chat } = context
  const notRun = (fill: (t: Transcript) => void) => notRunPhase(spec, layers.systemPrompt, fill)
  if (opened.cancelled) return notRun((t) => ((t.stop_reason = 'cancelled'), (t.cancelled = opened.cancelled)))
  if (!opened.session) return notRun((t) => (t.error = opened.error))
  const { session } = opened
  // A cancel that came while this run waited for a slot: it never starts.
  if (deps.cancel?.aborted) {
    await session.close()
    return notRun((t) => ((t.stop_reason = 'cancelled'), (t.cancelled = { reason: cancellationOf(deps.cancel)!, waiting_for: 'a free slot' })))
  }
  const clearLimit = context.run.limit(settings.timeoutSeconds * 1000, `the run exceeded timeout_seconds (${settings.timeoutSeconds}s)`)
  // eval-action's clock starts after the session is up and stops after it is closed.
  const agentStarted = performance.now()
  try {
    // The layers in registry order: observed conformance innermost, the trace outermost.
    const agentSession = layers.wrap(session)
    const signal = context.run.signal
    const task = {
      model: spec.model,
      max_steps: settings.maxSteps,
      attempt: spec.attempt,
      max_tool_result_chars: context.view.max_tool_result_chars,
      vision: context.view.vision.vision,
      disallowed_tools: context.view.disallowed_tools,
      keep_raw_results: context.view.structured_content
    }
    // One session for the whole conversation: every turn talks to the same server.
    const dialogue = spec.case.conversation
      ? await runConversation(spec.case.conversation, transcript, task, { session: agentSession, llm: chat, userLlm: chat, signal, ...(deps.appScreens ? { screens: deps.appScreens } : {}) })
      : null
    if (!dialogue) await runTurn(transcript, { user: spec.case.prompt, simulated: false }, task, agentSession, chat, signal)
    // What the layers still do on the session (the last call's app render) ends before it closes.
    await agentSession.idle?.()
    context.leaveSlot()
    await session.close()
    // A hung server says nothing by itself; what it last wrote to stderr often explains why.
    if (transcript.error?.stage === 'timeout' && !transcript.error.stderr_tail && session.stderrTail()) {
      transcript.error.stderr_tail = session.stderrTail()
    }
    return {
      transcript,
      session,
      duration_s: round1((performance.now() - agentStarted) / 1000),
      judgeable: transcript.stop_reason === 'final_answer' && (!dialogue || (dialogue.ended !== 'stopped' && spec.case.rubric !== '')),
      dialogue,
      inputs: context.inputs,
      outsideRounds: session.sessionRounds()
    }
  } finally {
    clearLimit()
    await session.close()
  }
}

function round1(n: number): number {
  return Math.round(n * 10) / 10
}
