/**
 * The span and attribute names our traces use. They follow the OpenTelemetry semantic
 * conventions for generative AI and for MCP: semantic conventions v1.39.0 (gen-ai spans, agent
 * spans and gen-ai/mcp), now kept in open-telemetry/semantic-conventions-genai; status:
 * Development, so expect renames and re-check on an upgrade. Where the conventions have no name for what we
 * record, the name is ours, under `mcp_server_evals.`.
 */

/** `gen_ai.operation.name` values. */
export const OPERATION = {
  invokeAgent: 'invoke_agent',
  chat: 'chat',
  executeTool: 'execute_tool'
} as const

/** Attribute names from the conventions. */
export const ATTR = {
  operationName: 'gen_ai.operation.name',
  requestModel: 'gen_ai.request.model',
  requestTemperature: 'gen_ai.request.temperature',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  evaluationScore: 'gen_ai.evaluation.score.value',
  mcpMethod: 'mcp.method.name',
  mcpResourceUri: 'mcp.resource.uri',
  mcpProtocolVersion: 'mcp.protocol.version',
  errorType: 'error.type'
} as const

/** Our own attribute names, for what the conventions do not cover. */
export const OWN_ATTR = {
  caseId: 'mcp_server_evals.case.id',
  promptName: 'mcp_server_evals.system_prompt.name',
  attempt: 'mcp_server_evals.run.attempt',
  index: 'mcp_server_evals.run.index',
  status: 'mcp_server_evals.run.status',
  /** A replayed answer from the record-and-replay cache: nothing was spent on it. */
  cached: 'mcp_server_evals.llm.cached',
  /** What the provider charged for the call, in USD, when it said. */
  costUsd: 'mcp_server_evals.usage.cost_usd',
  /** Layer 2: the fault injected into this call, and which call of its tool it was. */
  faultKind: 'mcp_server_evals.fault.kind',
  faultCall: 'mcp_server_evals.fault.call',
  /** Layer 2: the attack this call's output carried. */
  attackPayload: 'mcp_server_evals.attack.payload'
} as const

/** `error.type` for a call the server answered with `isError: true` (the MCP conventions' value). */
export const TOOL_ERROR = 'tool_error'

/** The instrumentation scope our spans are created under. */
export const TRACER_NAME = 'mcp-server-evals'
