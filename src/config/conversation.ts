import { goldenOf, patternProblem, requiredToolsOf, type RawRequirement, type Report, type YamlPath } from './expectations.js'
import type { Conversation, ConversationTurn, GoldenExpectations } from './types.js'

/** One entry of a case's `turns` as the YAML has it (the schema has checked its shape). */
type RawTurn = {
  user: string
  rubric?: string
  threshold?: number
  required_tools?: RawRequirement[] | null
} & GoldenExpectations

/** The conversation keys of a case as the YAML has them; the schema allows one of them at most. */
export interface RawConversation {
  turns?: RawTurn[]
  simulated_user?: { goal: string; persona?: string; max_turns: number; stop_when?: string }
}

/**
 * A case's conversation, or null for a single-turn case. A turn inherits the case's threshold;
 * the simulated user is played by `userModel`, which the caller has resolved (user_model, else the
 * judge model after its overrides).
 */
export function conversationOf(raw: RawConversation, at: YamlPath, report: Report, defaults: { threshold: number; userModel: string }): Conversation | null {
  if (raw.turns) {
    return { kind: 'turns', turns: raw.turns.map((turn, i) => turnOf(turn, [...at, 'turns', i], report, defaults.threshold)) }
  }
  const simulated = raw.simulated_user
  if (!simulated) return null
  const stopWhen = simulated.stop_when ?? null
  const problem = stopWhen === null ? null : patternProblem(stopWhen)
  if (problem) report(problem, [...at, 'simulated_user', 'stop_when'])
  return {
    kind: 'simulated',
    user: { goal: simulated.goal.trim(), persona: simulated.persona?.trim() ?? null, max_turns: simulated.max_turns, stop_when: stopWhen, model: defaults.userModel }
  }
}

function turnOf(raw: RawTurn, at: YamlPath, report: Report, caseThreshold: number): ConversationTurn {
  return {
    user: raw.user,
    rubric: raw.rubric?.trim() ?? null,
    threshold: raw.threshold ?? caseThreshold,
    required_tools: requiredToolsOf(raw.required_tools, at, report),
    golden: goldenOf(raw, at, report)
  }
}
