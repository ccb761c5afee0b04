import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join, resolve } from 'node:path'
import { main } from '../src/cli/main.js'
import { fixturePath } from './harness.js'

const root = resolve(fixturePath('..'))

/** The CLI in this process, with its output kept; `tty` pretends stdout is a terminal. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = {}, tty = false) {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, env, {
    stdout: { isTTY: tty, write: (t: string) => out.push(t) },
    stderr: { write: (t: string) => err.push(t) }
  })
  return { code, stdout: out.join(''), stderr: err.join('') }
}

/** A script of the repository run as a real child process (tsx on the sources) in `cwd`, with only PATH, HOME and `env`; its streams kept apart. */
export async function runTsxProcess(script: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, script), ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, stdout, stderr }
}

/** The CLI as a real child process (tsx on the sources), in `cwd`. */
export const runCliProcess = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) => runTsxProcess('src/cli.ts', args, cwd, env)
