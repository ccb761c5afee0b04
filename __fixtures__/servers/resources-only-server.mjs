#!/usr/bin/env node
// A 2026-07-28 server that declares only `resources` (stdio, or Streamable HTTP with --http): no
// tools, no prompts. The regression fixture for unknown-tool-error and the negative probes.
import { serve } from './era-fixture.mjs'

serve({ capabilities: { resources: {} } })
