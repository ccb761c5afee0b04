/**
 * What decides `passed` and the exit code, in one text: `--help`, the README and action.yml
 * carry it word for word (a test holds them to it).
 */
export const VERDICT_RULES = [
  '`passed` is true, and the step succeeds (exit 0), exactly when all of these hold:',
  '1. conformance passed under `conformance_fail_on` (or was off): a check listed in',
  '   `conformance_expected_failures` does not fail it, a stale or unknown entry of that file does;',
  '2. where the tool tests ran, every tool test passed: each of its `runs` attempts (pass^k), every',
  '   assertion of every step;',
  '3. where the behaviour evals ran, their gate passed: with `gate: absolute` (the default without a baseline) every group',
  '   (a case × model × system prompt over its repeats) reached its pass floor, so a failed run fails',
  '   the step only when it takes its group below the floor (hard cases need every run by default,',
  '   soft cases 80%); with `gate: delta` (the default with a baseline) no aggregate metric fell by',
  '   more than `max_drop` and no group went from passing to failing (with no baseline to compare',
  '   with, the floors decide); `both` needs both; and in every gate mode, where cases inject',
  '   faults or plant attacks, every model × fault kind and model × payload reached its Layer 2',
  '   floor (a run where the fault never fired or the attack never arrived counts as not passed);',
  '4. every Layer 3 budget that is set held: cost, tokens and p95 latencies on what was measured,',
  '   errors per run, agent steps and tokens per success (an evals/v1 suite\'s `metrics.gates`),',
  '   and, with a baseline, `max_p95_increase` and `max_cost_increase`; no run was skipped because',
  '   the spend reached `max_cost_usd`;',
  '5. the server could be started and reached, the evaluation was not cancelled and no planned',
  '   run is missing.',
  'Otherwise exit 1. A usage or configuration error exits 2 before anything runs; a cancelled',
  'job exits 130, 143 or 129 (SIGINT, SIGTERM, SIGHUP).'
].join('\n')

/** The same rules on one line, for action.yml's `passed` output. */
export const VERDICT_RULES_LINE = VERDICT_RULES.replace(/\n\s*/g, ' ')
