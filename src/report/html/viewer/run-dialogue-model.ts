import type { RunResult, TurnResult } from '../../../results/types.js'

/**
 * A run's dialogue as the page shows it: the conversation's entries in order, each assistant
 * entry's tool calls paired with the run's tool_calls records by order (the n-th call the
 * conversation shows is tool_calls[n], as the Markdown report pairs them) and with the next tool
 * message as the text the conversation kept. Pure (no DOM), so jest tests it.
 */

export type DialogueItem =
  | { type: 'user'; text: string; simulated: boolean; turn?: number }
  | { type: 'assistant'; text: string; turn?: number }
  /** `call_index`: into run.tool_calls, or null when the record has no such call (the conversation shows more calls than were recorded). */
  | { type: 'call'; name: string; args: unknown; call_index: number | null; output: string | null; turn?: number }
  /** A tool message no call claimed. */
  | { type: 'tool'; name: string; text: string; turn?: number }

const withTurn = (turn: number | undefined) => (turn === undefined ? {} : { turn })

export function dialogueItems(run: Pick<RunResult, 'conversation' | 'tool_calls'>): DialogueItem[] {
  const entries = run.conversation
  const items: DialogueItem[] = []
  const paired = new Set<number>()
  let next = 0
  entries.forEach((entry, i) => {
    if (entry.role === 'user') items.push({ type: 'user', text: entry.content, simulated: entry.simulated === true, ...withTurn(entry.turn) })
    else if (entry.role === 'assistant') {
      if (entry.content) items.push({ type: 'assistant', text: entry.content, ...withTurn(entry.turn) })
      for (const call of entry.tool_calls ?? []) {
        const resultIndex = entries.findIndex((e, j) => j > i && e.role === 'tool' && !paired.has(j))
        if (resultIndex >= 0) paired.add(resultIndex)
        const index = next < run.tool_calls.length ? next : null
        next++
        items.push({ type: 'call', name: call.name, args: call.args, call_index: index, output: resultIndex >= 0 ? entries[resultIndex].content : null, ...withTurn(entry.turn) })
      }
    } else if (!paired.has(i)) items.push({ type: 'tool', name: entry.tool_name ?? 'tool', text: entry.content, ...withTurn(entry.turn) })
  })
  return items
}

/** The calls of the record no conversation entry shows (a run whose conversation was not kept, or is shorter): their indexes. */
export function unshownCalls(run: Pick<RunResult, 'conversation' | 'tool_calls'>, items: DialogueItem[]): number[] {
  const shown = new Set(items.flatMap((i) => (i.type === 'call' && i.call_index !== null ? [i.call_index] : [])))
  return run.tool_calls.map((_, i) => i).filter((i) => !shown.has(i))
}

/**
 * One turn's items: the conversation entries marked with its turn, or — when the conversation
 * has no turn marks — the turn's own record (its user message, its slice of tool_calls, its answer).
 */
export function turnItems(run: Pick<RunResult, 'conversation' | 'tool_calls'>, items: DialogueItem[], turn: TurnResult): DialogueItem[] {
  const marked = items.filter((i) => i.turn === turn.index)
  if (items.some((i) => i.turn !== undefined)) return marked
  const calls: DialogueItem[] = run.tool_calls.slice(turn.first_call, turn.first_call + turn.calls).map((c, k) => ({ type: 'call', name: c.name, args: c.args, call_index: turn.first_call + k, output: null, turn: turn.index }))
  return [{ type: 'user', text: turn.user, simulated: turn.simulated, turn: turn.index }, ...calls, ...(turn.final_output ? [{ type: 'assistant' as const, text: turn.final_output, turn: turn.index }] : [])]
}
