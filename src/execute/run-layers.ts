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
