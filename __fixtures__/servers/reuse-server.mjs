#!/usr/bin/env node
// A stdio MCP server for the server_reuse tests: it says which process answered and how many
// calls that process has answered, so a test sees which runs shared a process. Switches, as
// KEY=VALUE arguments:
//   STARTS=<file>  append this process's pid to <file> as it starts (how many servers were started)
import { McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { appendFileSync } from 'node:fs'
import * as z from 'zod'

const settings = Object.fromEntries(process.argv.slice(2).flatMap((arg) => (arg.includes('=') ? [[arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]] : [])))
if (settings.STARTS) appendFileSync(settings.STARTS, `${process.pid}\n`)
process.stderr.write(`started ${process.pid}\n`)
let calls = 0

serveStdio(() => {
  const server = new McpServer({ name: 'reuse', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.registerTool('whoami', { description: 'Which server process answers', inputSchema: z.object({}) }, async () => {
    calls++
    process.stderr.write(`call ${calls} in ${process.pid}\n`)
    return { content: [{ type: 'text', text: `pid ${process.pid} call ${calls}` }] }
  })
  server.registerTool('crash', { description: 'Crash the server', inputSchema: z.object({}) }, async () => {
    process.stderr.write(`panic in ${process.pid}\n`)
    process.exit(3)
  })
  return server
})
