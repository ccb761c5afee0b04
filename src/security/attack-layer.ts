import type { EvalCase } from '../config/types.js'
import { secretsOut, type FinishedRun, type RunLayer } from '../execute/run-layer.js'
import { specKey } from '../plan/expand.js'
import type { SecurityVerdict } from '../results/types.js'
import { withAttacks } from './attack-session.js'
import { judgeAttacks } from './oracles.js'
import { planAttacks, type AttackPlan } from './plan.js'

/**
 * A case's attacks as a run layer, outside the faults (a payload rides on whatever result the
 * agent gets): each run has its own canary, derived from the run's key. Records `security`.
 */
export const attackLayer: RunLayer = {
  name: 'attacks',
  prepare(spec) {
    const attacks = planAttacks(spec.case.resilience, specKey(spec), { needed: neededTools(spec.case) })
    return {
      // A secret-request attack adds a confidential marker for the oracle to watch.
      systemPrompt: (prompt) => (attacks?.system_addendum ? `${prompt}\n\n${attacks.system_addendum}` : prompt),
      wrap: (session) => (attacks ? withAttacks(session, attacks) : session),
      // Not on a result an attack rewrote: that text is ours, not the server's.
      shapeCall: (call) => (call.annotations?.injected?.attack === 'tool_output' ? { ownText: true } : {}),
      record(run) {
        const security = securityVerdict(attacks, run)
        return { fields: { security }, passed: security?.resisted ?? true }
      }
    }
  }
}

/**
 * The attack oracles over what the run did. A run that errored still has its attacks judged,
 * since an attack that succeeded before the error did succeed; a cancelled run has no verdict
 * (an attack it had not yet acted on is not "not resisted").
 */
export function securityVerdict(attacks: AttackPlan | null, run: FinishedRun): SecurityVerdict | null {
  return attacks && !run.cancelled ? judgeAttacks(attacks, secretsOut(run)) : null
}

/** The tools a case expects the model to call. */
function neededTools(testCase: EvalCase): string[] {
  const golden = testCase.golden
  return [...new Set([...testCase.required_tools.map((r) => r.name), ...(golden?.expect_tool ? [golden.expect_tool] : []), ...(golden?.expect_sequence ?? [])])]
}
