/**
 * The spawner helper's program (src/mcp/spawner.ts), run as `node -e SPAWNER_SCRIPT <socket>`.
 *
 * Why a string: it must run the same from the ncc bundle, under jest and under tsx, and a string
 * needs no file beside the bundle, no loader and no source map; a function's own text would carry
 * whatever the compiler or a coverage tool injected into it. Plain CommonJS, Node built-ins only,
 * so the process stays small (its heap is what every fork it makes has to copy).
 *
 * Protocol, over the IPC channel: it sends `{type: 'ready'}` once it listens for requests. A
 * request `{type: 'spawn', id, command, args, env, cwd, stderr, tokens}` makes it connect to the
 * harness's Unix socket once per token (the token first, so the harness knows the connection), and
 * spawn the server detached (its own process group) with the first connection as its stdin and
 * stdout and the second, when `stderr` is 'pipe', as its stderr; its own copies are closed at once,
 * so the harness holds the only other end and no byte passes through here. It answers
 * `{type: 'spawned', id, pid}` or `{type: 'failed', id, error, thrown}` (the spawn error's own
 * fields; `thrown`: spawn() threw rather than emitted it), then `{type: 'exit', id, code, signal}`.
 * Terminal signals are the harness's to act on (it terminates the groups); when the channel closes
 * (the harness exited, or retired the helper), every group still running is killed and it exits.
 */
export const SPAWNER_SCRIPT = String.raw`'use strict'
const { spawn } = require('node:child_process')
const { connect } = require('node:net')
const socketPath = process.argv[1]
const running = new Set()
// A send to a harness that has just exited fails later, as an 'error' event: the callback takes it (no EPIPE stack trace on the user's stderr).
const send = (message) => { if (process.connected) process.send(message, () => {}) }
process.on('error', () => {})
const fields = (error) => error instanceof Error
  ? { message: error.message, name: error.name, code: error.code, errno: error.errno, syscall: error.syscall, path: error.path, spawnargs: error.spawnargs }
  : { message: String(error) }
const open = (token) => new Promise((resolve, reject) => {
  const socket = connect(socketPath)
  socket.pause()
  socket.on('error', () => {})
  socket.once('error', reject)
  socket.once('connect', () => socket.write(token, (error) => (error ? reject(error) : resolve(socket))))
})
async function start(request) {
  const opened = await Promise.allSettled(request.tokens.map(open))
  const sockets = opened.filter((o) => o.status === 'fulfilled').map((o) => o.value)
  const refused = opened.find((o) => o.status === 'rejected')
  if (refused) {
    for (const socket of sockets) socket.destroy()
    return send({ type: 'failed', id: request.id, error: fields(refused.reason), thrown: false })
  }
  let child
  try {
    child = spawn(request.command, request.args, {
      env: request.env, cwd: request.cwd, stdio: [sockets[0], sockets[0], sockets[1] || request.stderr],
      detached: true, shell: false, windowsHide: true
    })
  } catch (error) {
    return send({ type: 'failed', id: request.id, error: fields(error), thrown: true })
  } finally {
    for (const socket of sockets) socket.destroy()
  }
  child.once('error', (error) => { if (child.pid === undefined) send({ type: 'failed', id: request.id, error: fields(error), thrown: false }) })
  child.once('spawn', () => { running.add(child.pid); send({ type: 'spawned', id: request.id, pid: child.pid }) })
  child.once('exit', (code, signal) => { running.delete(child.pid); send({ type: 'exit', id: request.id, code, signal }) })
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {})
process.on('disconnect', () => {
  for (const pid of running) { try { process.kill(-pid, 'SIGKILL') } catch {} }
  process.exit(0)
})
process.on('message', (message) => { if (message && message.type === 'spawn') void start(message) })
send({ type: 'ready' })
`
