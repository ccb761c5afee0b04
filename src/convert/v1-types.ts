import type { EvalsV1Assertion, Json } from '../config/types.js'

/** An evals/v1 suite as written (after the shape check of read.ts): the keys the converters read. */
export interface V1Suite {
  apiVersion: string
  kind: string
  name: string
  intent?: string
  triggers?: Json
  server?: { url?: string; command?: string; args?: string[]; env?: Record<string, string> }
  defaults?: { timeoutMs?: number; maxAgentSteps?: number; judgeModel?: string; rubricThreshold?: number; client?: string }
  metrics?: { collect?: string[]; report?: string; gates?: { toolErrorRateMax?: number; agentStepsP95Max?: number; tokensPerSuccessP95Max?: number } }
  ci?: { failOn?: string[]; parallelCases?: boolean }
  flows: V1Flow[]
}

export interface V1Flow {
  id: string
  type: 'agent'
  clients?: V1Client[]
  systemPrompts?: Record<string, string>
  checks?: V1Check[]
  scenarios: V1Scenario[]
}

export interface V1Client {
  target: string
  framework?: string
  models?: string[]
  disallowedTools?: string[]
  runOn?: string[]
}

export interface V1Check {
  id: string
  call: { tool?: string; resource?: string; mcp?: 'listTools' | 'listResources' | 'listPrompts'; args?: Record<string, Json> }
  assert: EvalsV1Assertion[]
}

export interface V1Scenario {
  id: string
  tags?: string[]
  turns: V1Turn[]
  expect?: { judge?: { rubric: string; threshold?: number; screenshot?: boolean }; tools?: { forbidden?: string[] } }
}

export interface V1Turn {
  user: string
  expect?: {
    tools?: { name: string; args?: Record<string, Json>; afterTurn?: number }[]
    result?: { tool: string; assert: EvalsV1Assertion[] }
    widget?: { fields?: Record<string, Json>; screenshot?: { rubric: string; threshold?: number; tool?: string; args?: Record<string, Json> } }
  }
}

export const API_VERSION = 'mcp-use.com/evals/v1'

/** evals/v1's system prompt when a flow gives none (agentRunner.ts). */
export const V1_DEFAULT_SYSTEM_PROMPT = 'You are a helpful assistant with MCP tools.'

/** The client target whose runs happen where the suite runs (the others run only in mcp-use's hosted service). */
export const LOCAL_TARGET = 'mcp-use'
