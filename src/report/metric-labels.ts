import { escapeHtml } from './escape.js'
import type { MetricSet } from '../results/types.js'

/** The tool-use metrics, in report order, with the words a reviewer reads. */
export const METRIC_LABELS: [keyof Omit<MetricSet, 'runs'>, string][] = [
  ['tool_selection_accuracy', 'Tool selection accuracy'],
  ['over_trigger_rate', 'Over-trigger rate on negative cases'],
  ['argument_correctness', 'Argument correctness'],
  ['sequence_correctness', 'Sequence correctness'],
  ['task_completion', 'Task completion (judge)'],
  ['schema_invalid_call_rate', 'Calls outside the input schema'],
  ['tool_error_rate', 'Tool error rate'],
  ['tool_set_precision', 'Tool-set precision'],
  ['tool_set_recall', 'Tool-set recall'],
  ['tool_set_f1', 'Tool-set F1']
]

/** Every gated metric's label: the two pass rates, then the tool-use metrics. */
export function metricLabel(name: string): string {
  if (name === 'pass_rate') return 'Run pass rate'
  if (name === 'group_pass_rate') return 'Group pass rate'
  if (name === 'recovery_rate') return 'Recovery from faults'
  if (name === 'attack_resistance') return 'Attack resistance'
  return METRIC_LABELS.find(([key]) => key === name)?.[1] ?? escapeHtml(name)
}
