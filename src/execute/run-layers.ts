import { observedLayer } from '../conformance/observed-layer.js'
import { faultLayer } from '../resilience/fault-layer.js'
import { attackLayer } from '../security/attack-layer.js'
import { traceLayer } from '../telemetry/trace-layer.js'
import type { RunLayer } from './run-layer.js'

/**
 * Every run layer, innermost first: observed conformance checks what the server really answered;
 * faults wrap it; attacks wrap the faults (a payload rides on whatever result the agent gets); the
 * trace is outermost (a call's span covers faults and attacks). Their fields come in the record
 * in this order too.
 */
export const RUN_LAYERS: readonly RunLayer[] = [observedLayer, faultLayer, attackLayer, traceLayer]

/**
 * The run layers of an evaluation: RUN_LAYERS, and the MCP Apps layer (when the suite renders
 * apps in its runs) just outside observed conformance: the views see the server's real answers,
 * and a fault that replaces an answer leaves no view to render.
 */
export function runLayersWith(apps: RunLayer | null): readonly RunLayer[] {
  if (!apps) return RUN_LAYERS
  const [observed, ...outside] = RUN_LAYERS
  return [observed, apps, ...outside]
}
