import type { RunResult, TurnResult } from '../../../results/types.js'
import { JsonText, LongText, Status, count } from './common.js'
import { Heading } from './heading.js'
import { dialogueItems, turnItems, unshownCalls, type DialogueItem } from './run-dialogue-model.js'
import { endedWords, judgeWords, stopWords, turnChecked, usageWords } from './run-words.js'
import { ToolCall } from './tool-call.js'

/** One entry of the dialogue: a user message (marked simulated), the assistant's text, a tool call with its record, a stray tool message. */
function Item({ run, item, callLevel }: { run: RunResult; item: DialogueItem; callLevel: 4 | 5 }) {
  switch (item.type) {
    case 'user':
      return (
        <div class="entry entry-user">
          <p class="role">User{item.simulated ? ' (simulated)' : ''}</p>
          <LongText text={item.text} label="user message" />
        </div>
      )
    case 'assistant':
      return (
        <div class="entry entry-assistant">
          <p class="role">Assistant</p>
          <LongText text={item.text} label="assistant message" />
        </div>
      )
    case 'call':
      if (item.call_index !== null) return <ToolCall run={run} index={item.call_index} level={callLevel} output={item.output} />
      // The conversation shows a call the record does not have: what the conversation kept.
      return (
        <div class="tool-call">
          <p class="role">
            Tool call <code>{item.name}</code> (not in the run's tool call records)
          </p>
          <JsonText value={item.args} label={`arguments of ${item.name}`} />
          {item.output !== null && <LongText text={item.output} label={`result of ${item.name}`} />}
        </div>
      )
    case 'tool':
      return (
        <div class="entry entry-tool">
          <p class="role">
            Tool result <code>{item.name}</code>
          </p>
          <LongText text={item.text} label={`result of ${item.name}`} />
        </div>
      )
  }
}

/** A turn's verdict, its user message, its calls, its answer, the judge's reason and its failed checks. */
function Turn({ run, turn, items }: { run: RunResult; turn: TurnResult; items: DialogueItem[] }) {
  const checks = [...(turn.tool_assertions?.checks ?? []), ...(turn.golden_assertions?.checks ?? [])]
  const judged = judgeWords(turn.judge)
  const checked = turnChecked(run, turn)
  const failedTools = turn.tool_assertions?.checks.filter((c) => !c.passed) ?? []
  const failedGolden = turn.golden_assertions?.checks.filter((c) => !c.passed) ?? []
  const answered = items.some((i) => i.type === 'assistant')
  return (
    <section class="turn" aria-labelledby={`run-${run.index}-turn-${turn.index}`}>
      <Heading level={4} id={`run-${run.index}-turn-${turn.index}`}>
        Turn {turn.index}
        {checked ? (
          <>
            {' '}
            <Status status={turn.passed ? 'passed' : 'failed'} />
          </>
        ) : (
          ' (no verdict of its own)'
        )}
      </Heading>
      <p class="turn-facts">
        {[...(turn.simulated ? ['simulated user'] : []), ...(judged ? [judged] : []), ...(checks.length > 0 ? [`checks ${checks.filter((c) => c.passed).length}/${checks.length}`] : []), count(turn.calls, 'tool call'), count(turn.llm_calls, 'LLM call')].join(' · ')}
      </p>
      {turn.judge?.reason && <p class="turn-judge">Judge: {turn.judge.reason}</p>}
      {(failedTools.length > 0 || failedGolden.length > 0) && (
        <ul class="failed-checks">
          {failedTools.map((c, k) => (
            <li key={`t${k}`}>
              <Status status="failed" label="failed" /> <code>{c.tool}</code> — {c.reason}
              {c.expected_args ? ` (expected ${JSON.stringify(c.expected_args)})` : ''}
            </li>
          ))}
          {failedGolden.map((c, k) => (
            <li key={`g${k}`}>
              <Status status="failed" label="failed" /> <code>{c.check}</code> — {c.reason}
            </li>
          ))}
        </ul>
      )}
      {items.map((item, k) => (
        <Item key={k} run={run} item={item} callLevel={5} />
      ))}
      {!answered && <p class="muted">{turn.stop_reason === 'final_answer' ? 'The answer was empty.' : `No final answer: ${stopWords(turn.stop_reason)}.`}</p>}
    </section>
  )
}

/**
 * The dialogue turn by turn. A single-turn run: its conversation, each assistant entry's calls
 * paired with the call records in order. A multi-turn run: how many turns, scripted or simulated,
 * how it ended, who played the user, then each turn with its verdict. Calls the conversation does
 * not show are listed after it, so none is lost.
 */
export function Dialogue({ run }: { run: RunResult }) {
  const items = dialogueItems(run)
  const rest = unshownCalls(run, items)
  const dialogue = run.dialogue
  const headingId = `run-${run.index}-dialogue`
  if (items.length === 0 && rest.length === 0 && !dialogue) return null
  return (
    <section class="run-part" aria-labelledby={headingId}>
      <Heading level={3} id={headingId}>
        {dialogue ? 'Dialogue' : 'Conversation'}
      </Heading>
      {dialogue ? (
        <>
          <p class="dialogue-summary">
            {dialogue.kind === 'simulated' ? `${count(dialogue.turns.length, 'turn')} with a simulated user` : count(dialogue.turns.length, 'scripted turn')}; ended: {endedWords(dialogue)}.{' '}
            <Status status={dialogue.turns_passed ? 'passed' : 'failed'} label={dialogue.turns_passed ? 'every turn passed' : 'a turn failed'} />
          </p>
          {dialogue.kind === 'simulated' && (
            <p class="muted">
              The user was played by <code>{dialogue.user_model ?? 'an unknown model'}</code>
              {dialogue.user_usage ? `, ${usageWords(dialogue.user_usage)}` : ''} (counted with the judge's).
            </p>
          )}
          {dialogue.turns.map((turn) => (
            <Turn key={turn.index} run={run} turn={turn} items={turnItems(run, items, turn)} />
          ))}
        </>
      ) : (
        items.map((item, k) => <Item key={k} run={run} item={item} callLevel={4} />)
      )}
      {rest.length > 0 && (
        <>
          <p class="label">Tool calls the conversation does not show</p>
          {rest.map((i) => (
            <ToolCall key={i} run={run} index={i} level={4} />
          ))}
        </>
      )}
    </section>
  )
}
