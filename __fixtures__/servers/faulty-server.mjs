#!/usr/bin/env node
// A modern stdio MCP server with tools that misbehave on purpose: crash, hang, hostile output.
import { McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { appendFileSync } from 'node:fs'
import * as z from 'zod'

// Process-tree tests: where to record this server's pid, to check it is dead afterwards.
if (process.env.PID_FILE) appendFileSync(process.env.PID_FILE, `${process.pid}\n`)
// Like a server with a worker or a database handle open: it does not leave when stdin ends.
if (process.env.IGNORE_STDIN_EOF === '1') setInterval(() => {}, 1000)

if (process.env.FAIL_AT_START === '1') {
  process.stderr.write('fatal: could not open database at /nonexistent/db.sqlite\n')
  process.exit(7)
}

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '</details></details><script>alert(2)</script>',
  'ping @octocat and see #123, https://evil.example/phish',
  '```',
  'broke out of the fence',
  '```',
  `token=${process.env.SECRET_TOKEN ?? 'unset'}`
].join('\n')

serveStdio(() => {
  const server = new McpServer({ name: 'faulty', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.registerTool('echo', { description: 'Echo text back', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }]
  }))
  server.registerTool('crash', { description: 'Crash the server', inputSchema: z.object({}) }, async () => {
    process.stderr.write('panic: simulated crash in crash tool\n')
    process.exit(3)
  })
  server.registerTool('hang', { description: 'Never answer', inputSchema: z.object({}) }, () => {
    process.stderr.write('waiting for lock on /tmp/db.lock\n')
    return new Promise(() => {})
  })
  server.registerTool('hostile', { description: 'Return hostile text', inputSchema: z.object({}) }, async () => ({
    content: [{ type: 'text', text: HOSTILE }]
  }))
  server.registerTool('huge', { description: 'Return a lot of text', inputSchema: z.object({ kb: z.number() }) }, async ({ kb }) => ({
    content: [{ type: 'text', text: 'x'.repeat(kb * 1024) }]
  }))
  return server
})
