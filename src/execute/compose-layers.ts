import type { ToolCallRecord } from '../agent/run-agent.js'
import type { McpSession, OpenOptions, RawToolCall } from '../mcp/session.js'
import type { RunSpec } from '../plan/expand.js'
import type { RunResult } from '../results/types.js'
import type { CallShaping, FinishedRun, LayerContext, LayerRun, RunLayer } from './run-layer.js'

/** A run's layers, prepared and composed: the one place where their hooks meet. */
export interface LayeredRun {
  /** The system prompt as sent, every layer's contribution in registry order. */
  systemPrompt: string
  /** What the layers add to the session's OpenOptions. */
  open: OpenOptions
  /** The session the agent sees: the first layer innermost, the last outermost. */
  wrap(session: McpSession): McpSession
  /** How a call is kept in the record, as the layers that touched it say. */
  shapeCall(call: ToolCallRecord): CallShaping
  /** Every layer's fields in registry order (the document's key order), and whether every layer passed its part. */
  record(run: FinishedRun): { fields: Partial<RunResult>; passed: boolean }
}

/** Prepare each layer for this run and compose them, in the order given (the registry's). */
export function prepareLayers(layers: readonly RunLayer[], spec: RunSpec, context: LayerContext): LayeredRun {
  const runs: LayerRun[] = layers.map((layer) => layer.prepare(spec, context))
  return {
    systemPrompt: runs.reduce((prompt, run) => run.systemPrompt?.(prompt) ?? prompt, spec.system_prompt),
    open: runs.reduce(mergeOpen, {}),
    wrap(session) {
      const observers: ((call: RawToolCall) => void)[] = []
      for (const run of runs) {
        // A wrapper's real answers are seen by the layers inside it only.
        const inside = [...observers]
        if (run.wrap) session = run.wrap(session, { observe: (call) => inside.forEach((observe) => observe(call)) })
        if (run.observe) observers.push(run.observe)
      }
      return session
    },
    shapeCall(call) {
      const shapings = runs.map((run) => run.shapeCall?.(call) ?? {})
      const kept = shapings.find((s) => s.kept !== undefined)?.kept
      return { ...(kept !== undefined ? { kept } : {}), ...(shapings.some((s) => s.ownText) ? { ownText: true } : {}) }
    },
    record(run) {
      const verdicts = runs.map((layer) => layer.record(run))
      return { fields: Object.assign({}, ...verdicts.map((v) => v.fields)) as Partial<RunResult>, passed: verdicts.every((v) => v.passed) }
    }
  }
}

/** One layer's open options over the ones before it; two fetch wrappers nest, the later one outside. */
function mergeOpen(merged: OpenOptions, run: LayerRun): OpenOptions {
  const open = run.open
  if (!open) return merged
  const inner = merged.wrapFetch
  const outer = open.wrapFetch
  return { ...merged, ...open, ...(inner && outer ? { wrapFetch: (fetch) => outer(inner(fetch)) } : {}) }
}
