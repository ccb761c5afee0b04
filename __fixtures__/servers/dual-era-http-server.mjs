#!/usr/bin/env node
// A dual-era server (stdio, or Streamable HTTP with --http): 2026-07-28 requests are served
// statelessly, and a 2025 client's initialize opens a 2025-11-25 session (HTTP: Mcp-Session-Id,
// a GET event stream, DELETE, 404 after it). Hand-written: @modelcontextprotocol/server 2.4.0's
// createMcpHandler serves 2025 traffic statelessly only (GET and DELETE → 405), so it cannot be
// the regression fixture for a dual-era server whose 2025 sessions use GET. DEFECT as in era-fixture.mjs.
import { serve } from './era-fixture.mjs'

serve({ capabilities: { tools: {}, prompts: {}, resources: {} }, dual: true })
