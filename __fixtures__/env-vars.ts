import { afterAll, afterEach, beforeAll } from '@jest/globals'
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Sets action inputs (`INPUT_<NAME>`) for one test; they are removed after each test. */
export function useActionInputs(): (values: Record<string, string>) => void {
  const set: string[] = []
  afterEach(() => {
    for (const key of set.splice(0)) delete process.env[key]
  })
  return (values) => {
    for (const [name, value] of Object.entries(values)) {
      const key = `INPUT_${name.toUpperCase()}`
      process.env[key] = value
      set.push(key)
    }
  }
}

/** A test file's own RUNNER_TEMP (restored after the file): where its `${RUN_DIR}`s go, so a test can see what is left there. */
export interface RunnerTemp {
  /** The temp directory itself (its real path: server-filesystem names directories by it). */
  readonly path: string
  /** Where the run directories are made: `<RUNNER_TEMP>/mcp-server-evals-run-dirs`. */
  base(): string
  /** The names under the base now. */
  inBase(): string[]
  /** What a test left under the base: the names not there before it. */
  leftSince(before: string[]): string[]
}

export function useRunnerTemp(prefix: string): RunnerTemp {
  let path = ''
  let saved: string | undefined
  beforeAll(() => {
    saved = process.env.RUNNER_TEMP
    path = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
    process.env.RUNNER_TEMP = path
  })
  afterAll(() => {
    rmSync(path, { recursive: true, force: true })
    if (saved === undefined) delete process.env.RUNNER_TEMP
    else process.env.RUNNER_TEMP = saved
  })
  const base = () => join(path, 'mcp-server-evals-run-dirs')
  const inBase = () => (existsSync(base()) ? readdirSync(base()) : [])
  return {
    get path() {
      return path
    },
    base,
    inBase,
    leftSince: (before) => inBase().filter((name) => !before.includes(name))
  }
}
