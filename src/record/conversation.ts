import { isMediaMessage, type Transcript } from '../agent/run-agent.js'
import type { ConversationEntry } from '../results/types.js'

const TOOL_OUTPUT_LIMIT = 2000

/**
 * eval-action's conversation: no system message, no call ids, tool output cut at 2000 chars. A
 * conversation's entries also say which turn they belong to, and mark the simulated user's messages.
 */
export function toConversation(transcript: Transcript, redact: (text: string) => string, conversational: boolean): ConversationEntry[] {
  const entries: ConversationEntry[] = []
  let assistantCalls = 0
  let toolResults = 0
  let turn = 0
  const push = (entry: ConversationEntry) => {
    const current = transcript.turns[turn - 1]
    entries.push(conversational && current ? { ...entry, turn, ...(current.simulated && entry.role === 'user' ? { simulated: true as const } : {}) } : entry)
  }
  for (const [index, message] of transcript.messages.entries()) {
    if (transcript.turns[turn]?.first_message === index) turn++
    // The images the model was sent after a step's tool results are no user turn: the tool calls record them.
    if (isMediaMessage(message)) continue
    if (message.role === 'user') push({ role: 'user', content: message.content as string })
    else if (message.role === 'assistant') {
      const entry: ConversationEntry = { role: 'assistant', content: message.content ?? '' }
      if (message.tool_calls?.length) {
        entry.tool_calls = message.tool_calls.map((call) => {
          const record = transcript.tool_calls[assistantCalls++]
          return { name: record?.name ?? call.function.name, args: record?.args ?? {} }
        })
      }
      push(entry)
    } else if (message.role === 'tool') {
      const record = transcript.tool_calls[toolResults++]
      const text = redact(message.content)
      const content = text.length > TOOL_OUTPUT_LIMIT ? `${text.slice(0, TOOL_OUTPUT_LIMIT)}\n... (truncated)` : text
      push({ role: 'tool', content, ...(record ? { tool_name: record.name } : {}) })
    }
  }
  return entries
}
