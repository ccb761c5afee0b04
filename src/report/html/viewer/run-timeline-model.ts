import type { ConversationEntry, RunResult, ToolCallResult } from '../../../results/types.js'

/**
 * A run's timeline, reconstructed: the document keeps how long each step took, not when it
 * started, so the steps are laid end to end in the order the agent makes them — the server's
 * start (connect, then list), each agent LLM call followed by the tool calls it asked for, one
 * after another, then the judge (a multi-turn run: turn by turn, each turn's judge after its
 * calls, the whole dialogue's judge last). A sampling request the server sent during a tool call
 * was answered by the model under test inside that call: its LLM call is drawn from the call's
 * start, overlapping it. Pure (no DOM), so jest tests it.
 */

export type TimelineKind = 'server' | 'llm' | 'tool' | 'judge'

export interface TimelineItem {
  kind: TimelineKind
  /** "connect", "LLM call 2", "get_weather", "judge (turn 1)". */
  label: string
  start_ms: number
  duration_ms: number
  /** `error`: a tool error, an LLM call that ended the run in error, a judge that failed. */
  status: 'ok' | 'error'
  /** What else is worth a mark: "fault: timeout", "attack: exfiltrate", "sampling", "cached", "finish: tool_calls", "1,234 tokens". */
  notes: string[]
  /** Tool items: the index of the call in run.tool_calls (0-based). */
  call_index?: number
  /** LLM items: the index in run.llm_calls (0-based). */
  llm_index?: number
  /** Multi-turn runs: the turn (1-based) the item belongs to. */
  turn?: number
}

export interface Timeline {
  items: TimelineItem[]
  /** The end of the last item (ms from the run's start). */
  total_ms: number
  /** What the document has no place for on the axis: the simulated user's LLM calls (summed), in a sentence; null when nothing. */
  unplaced: string | null
}

const tokens = (n: number) => `${n.toLocaleString('en-US')} tokens`

/** How many tool calls each agent step (each assistant entry, in order) asked for, in a run's conversation or one turn of it. */
function callsPerStep(entries: ConversationEntry[]): number[] {
  return entries.filter((e) => e.role === 'assistant').map((e) => e.tool_calls?.length ?? 0)
}

/** Whether the call's rounds asked the model under test to sample: how many such requests. */
function samplingRequests(call: ToolCallResult): number {
  let n = 0
  for (const round of call.input_rounds ?? []) for (const ex of round.exchanges) if (ex.method === 'sampling/createMessage' && ex.answered_by.startsWith('the model under test')) n++
  return n
}

function toolNotes(call: ToolCallResult): string[] {
  const notes: string[] = []
  if (call.fault) notes.push(`fault: ${call.fault.kind}`)
  if (call.injected) notes.push(`attack: ${call.injected.payload}`)
  if ((call.input_rounds?.length ?? 0) > 0) notes.push(`${call.input_rounds!.length} input round${call.input_rounds!.length === 1 ? '' : 's'}`)
  return notes
}

interface Step {
  llm: number
  calls: number[]
  turn?: number
}

/**
 * The agent's steps: which agent LLM call (index into llm_calls) asked for which tool calls.
 * Single-turn runs pair the conversation's assistant entries with the agent LLM calls in order;
 * multi-turn runs do so within each turn (its `llm_calls` count and its slice of tool_calls). A
 * call no step claims (a record the conversation does not show) goes after the last step that asked for calls.
 */
function stepsOf(run: RunResult, agent: number[]): Step[] {
  const steps: Step[] = []
  const claimed = new Set<number>()
  const assign = (llmIndexes: number[], perStep: number[], firstCall: number, callCount: number, turn?: number) => {
    let next = firstCall
    const end = firstCall + callCount
    llmIndexes.forEach((llm, k) => {
      const want = perStep[k] ?? 0
      const calls: number[] = []
      for (let j = 0; j < want && next < end; j++) calls.push(next++)
      calls.forEach((c) => claimed.add(c))
      steps.push({ llm, calls, ...(turn === undefined ? {} : { turn }) })
    })
    // What the conversation did not pair goes after the last step that asked for calls (or the first step).
    if (next < end) {
      const mine = steps.filter((s) => s.turn === turn)
      const host = [...mine].reverse().find((s) => s.calls.length > 0) ?? mine[0]
      const rest: number[] = []
      for (; next < end; next++) rest.push(next)
      if (host) {
        host.calls.push(...rest)
        rest.forEach((c) => claimed.add(c))
      }
    }
  }
  const dialogue = run.dialogue
  if (dialogue && dialogue.turns.length > 0) {
    let cursor = 0
    for (const turn of dialogue.turns) {
      const llms = agent.slice(cursor, cursor + turn.llm_calls)
      cursor += turn.llm_calls
      const entries = run.conversation.filter((e) => e.turn === turn.index)
      assign(llms, callsPerStep(entries), turn.first_call, turn.calls, turn.index)
    }
    // Agent LLM calls past the turns' counts (an older record): after the last turn.
    const lastTurn = dialogue.turns.at(-1)?.index
    for (const llm of agent.slice(cursor)) steps.push({ llm, calls: [], ...(lastTurn === undefined ? {} : { turn: lastTurn }) })
  } else {
    assign(agent, callsPerStep(run.conversation), 0, run.tool_calls.length)
  }
  // Calls no step could hold (a run without LLM calls): a step of their own, with no LLM call.
  const loose = run.tool_calls.map((_, i) => i).filter((i) => !claimed.has(i))
  if (loose.length > 0) steps.push({ llm: -1, calls: loose })
  return steps
}

/** The run's timeline, reconstructed from the recorded durations, in order (see the module's comment). */
export function timelineOf(run: RunResult): Timeline {
  const items: TimelineItem[] = []
  let t = 0
  const push = (item: Omit<TimelineItem, 'start_ms'>, start = t): TimelineItem => {
    const placed = { ...item, start_ms: start, duration_ms: Math.max(0, item.duration_ms || 0) }
    items.push(placed)
    return placed
  }
  const server = run.server
  if (server.connect_ms !== null) t = push({ kind: 'server', label: 'connect', duration_ms: server.connect_ms, status: 'ok', notes: server.era ? [server.era] : [] }).duration_ms
  if (server.list_ms !== null) {
    const item = push({ kind: 'server', label: 'list tools', duration_ms: server.list_ms, status: 'ok', notes: server.tools === null ? [] : [`${server.tools} tools`] })
    t = item.start_ms + item.duration_ms
  }

  const llmCalls = run.llm_calls
  const agent = llmCalls.map((c, i) => ({ c, i })).filter(({ c }) => c.purpose !== 'sampling').map(({ i }) => i)
  const sampling = llmCalls.map((c, i) => ({ c, i })).filter(({ c }) => c.purpose === 'sampling').map(({ i }) => i)
  let samplingNext = 0
  const lastAgent = agent.at(-1)
  const failedLlm = run.error?.stage === 'llm' || run.error?.stage === 'timeout'

  const llmItem = (i: number, start: number, turn?: number): TimelineItem => {
    const call = llmCalls[i]
    const notes: string[] = []
    if (call.purpose === 'sampling') notes.push('sampling')
    if (call.cached) notes.push('cached')
    if (call.finish_reason) notes.push(`finish: ${call.finish_reason}`)
    if (call.usage) notes.push(tokens(call.usage.total_tokens))
    const status = failedLlm && i === lastAgent ? 'error' : 'ok'
    const label = call.purpose === 'sampling' ? `sampling (LLM call ${i + 1})` : `LLM call ${i + 1}`
    return push({ kind: 'llm', label, duration_ms: call.latency_ms, status, notes, llm_index: i, ...(turn === undefined ? {} : { turn }) }, start)
  }

  const judgeItem = (latency: number | null, failed: boolean, label: string, turn?: number) => {
    if (latency === null) return
    const item = push({ kind: 'judge', label, duration_ms: latency, status: failed ? 'error' : 'ok', notes: [], ...(turn === undefined ? {} : { turn }) })
    t = item.start_ms + item.duration_ms
  }

  const dialogue = run.dialogue
  const steps = stepsOf(run, agent)
  const turnsDone = new Set<number>()
  const endTurn = (turn: number | undefined) => {
    if (turn === undefined || turnsDone.has(turn)) return
    turnsDone.add(turn)
    const judge = dialogue?.turns.find((x) => x.index === turn)?.judge ?? null
    if (judge) judgeItem(judge.latency_ms, judge.error !== null || judge.score === null, `judge (turn ${turn})`, turn)
  }
  steps.forEach((step, k) => {
    if (step.llm >= 0) {
      const item = llmItem(step.llm, t, step.turn)
      t = item.start_ms + item.duration_ms
    }
    for (const ci of step.calls) {
      const call = run.tool_calls[ci]
      const item = push({ kind: 'tool', label: call.name, duration_ms: call.latency_ms, status: call.is_error ? 'error' : 'ok', notes: toolNotes(call), call_index: ci, ...(step.turn === undefined ? {} : { turn: step.turn }) })
      // Its sampling requests were answered by the model under test inside the call.
      let s = item.start_ms
      for (let n = samplingRequests(call); n > 0 && samplingNext < sampling.length; n--) {
        const placed = llmItem(sampling[samplingNext++], s, step.turn)
        s = placed.start_ms + placed.duration_ms
      }
      t = Math.max(item.start_ms + item.duration_ms, s)
    }
    // A turn's judge comes after the turn's last step.
    const nextTurn = steps[k + 1]?.turn
    if (step.turn !== undefined && nextTurn !== step.turn) endTurn(step.turn)
  })
  // Turns with no step at all (no LLM call recorded) still had their judge.
  for (const turn of dialogue?.turns ?? []) endTurn(turn.index)
  // Sampling calls no call's rounds account for: after the agent's steps.
  while (samplingNext < sampling.length) {
    const item = llmItem(sampling[samplingNext++], t)
    t = item.start_ms + item.duration_ms
  }
  const judge = run.judge
  if (judge) judgeItem(judge.latency_ms, judge.error !== null, dialogue ? 'judge (whole dialogue)' : 'judge')

  const total_ms = items.reduce((m, i) => Math.max(m, i.start_ms + i.duration_ms), 0)
  const userMs = dialogue?.user_latency_ms ?? null
  const unplaced = userMs !== null && userMs > 0 ? `The simulated user's LLM calls (${userMs.toLocaleString('en-US')} ms in all) are not on the axis: the document keeps only their sum.` : null
  return { items, total_ms, unplaced }
}
