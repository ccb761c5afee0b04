/**
 * The results schema, one file per layer; this barrel re-exports all of it so that a consumer
 * imports every shape of the document from one place. src/results/ imports nothing but itself
 * and src/util/: the implementation borrows its shapes from here, never the other way.
 */
export * from './document.js'
export * from './run.js'
export * from './dialogue.js'
export * from './model-view.js'
export * from './resilience.js'
export * from './conformance.js'
export * from './tool-tests.js'
export * from './apps.js'
export * from './telemetry.js'
export * from './gate.js'
export * from './shard.js'
export * from './evals-v1.js'
export * from './scoring.js'
export * from './primitives.js'
export * from './suite.js'
export * from './usage.js'
