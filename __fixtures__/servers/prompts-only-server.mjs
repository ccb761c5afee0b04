#!/usr/bin/env node
// A 2026-07-28 server that declares only `prompts` (stdio, or Streamable HTTP with --http): tools/call
// and tools/list are unknown methods here (404 / -32601), which is correct. The regression fixture
// for unknown-tool-error and the negative probes, which must not be judged on a tools/* 404.
import { serve } from './era-fixture.mjs'

serve({ capabilities: { prompts: {} } })
