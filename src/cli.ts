#!/usr/bin/env node
import { main } from './cli/main.js'

process.exitCode = await main(process.argv.slice(2))
// Done: nothing a server or a request left open may keep the process (and a CI step) alive.
process.exit()
