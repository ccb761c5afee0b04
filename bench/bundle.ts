// The shipped form of today's sources, for the benchmarks that run the harness as a process:
// src/cli.ts or src/index.ts bundled by ncc as `npm run package` does, into a directory of its
// own under the temp directory (dist/ is the committed build, and may be older than the sources).
// Other work in the tree may not typecheck at the moment, so the bundle is made from a copy of
// src/ (with schema/, examples/ and __fixtures__/, which it imports) with types stripped, not checked
// (`--transpile-only`, emitting ES modules as the checked build does); tsc checks the types.
// A bundle is kept per content of those folders and package-lock.json: a second benchmark on the
// same sources does not bundle again (~20 s on 2 cores).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** A bundle of other sources this old is removed when a new one is made. */
const STALE_MS = 3_600_000
/** What the bundle is made from. */
const COPIED = ['src', 'schema', 'examples', '__fixtures__', 'package.json', 'package-lock.json']

/** A bundle on disk: its entry script, and which module each webpack module id is (null: not known). */
export interface Bundle {
  entry: string
  /** modules.json: `{ "<webpack id>": "<module path>" }`, for reading a CPU profile of the bundle. */
  modules: string | null
}

/** The entries `npm run package` bundles: the action (dist/index.js) and the CLI (dist/cli/index.js). */
export type BundleEntry = 'action' | 'cli'

const SOURCES: Record<BundleEntry, string> = { action: 'src/index.ts', cli: 'src/cli.ts' }

/**
 * The bundle of `entry`: `given` when a path was passed (e.g. dist/cli/index.js, its modules
 * unknown), else today's sources bundled (or the bundle already made of the same sources).
 */
export async function bundleOf(entry: BundleEntry, given?: string): Promise<Bundle> {
  if (given) return { entry: resolve(given), modules: null }
  const base = join(tmpdir(), 'mcp-server-evals-bench')
  const dir = join(base, `${entry}-${sourcesHash()}`)
  const bundle = { entry: join(dir, 'index.js'), modules: join(dir, 'modules.json') }
  if (existsSync(bundle.entry) && existsSync(bundle.modules)) return bundle
  process.stderr.write(`bundling ${SOURCES[entry]} with ncc into ${dir} (about 20 s, once per change of the sources)\n`)
  const copy = join(base, `copy-${process.pid}`)
  rmSync(copy, { recursive: true, force: true })
  mkdirSync(copy, { recursive: true })
  try {
    for (const name of COPIED) cpSync(join(ROOT, name), join(copy, name), { recursive: true })
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
    const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown>; include: string[] }
    // Transpiled file by file, NodeNext cannot tell ESM from CJS: say ESM, as package.json does.
    tsconfig.compilerOptions = { ...tsconfig.compilerOptions, module: 'ES2022', moduleResolution: 'Bundler' }
    tsconfig.include = ['src']
    writeFileSync(join(copy, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2))
    const stats = join(copy, 'stats.json')
    const ncc = spawn(join(ROOT, 'node_modules/.bin/ncc'), ['build', SOURCES[entry], '-o', dir, '--transpile-only', '--stats-out', stats, '--quiet'], {
      cwd: copy,
      stdio: ['ignore', 'ignore', 'inherit']
    })
    const [code] = (await once(ncc, 'exit')) as [number | null]
    if (code !== 0) {
      rmSync(dir, { recursive: true, force: true })
      throw new Error(`ncc build ${SOURCES[entry]} exited with ${code}`)
    }
    // As in dist/: the bundle is ESM.
    writeFileSync(join(dir, 'package.json'), '{\n  "type": "module"\n}\n')
    writeFileSync(bundle.modules, JSON.stringify(moduleNames(stats)))
    // Bundles of earlier sources are of no more use once no benchmark can still be running from one.
    for (const old of readdirSync(base)) {
      const path = join(base, old)
      if (old.startsWith(`${entry}-`) && path !== dir && Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true })
    }
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
  return bundle
}

/** webpack's stats (tens of MB) reduced to what a profile needs: each module id's path. */
function moduleNames(statsPath: string): Record<string, string> {
  const stats = JSON.parse(readFileSync(statsPath, 'utf8')) as { modules: { id: number | string | null; name: string }[] }
  const names: Record<string, string> = {}
  for (const m of stats.modules) if (m.id !== null && m.id !== '') names[String(m.id)] = shownModule(m.name)
  return names
}

/**
 * A module's name as webpack gives it, relative to the project: node_modules is reached through
 * the copy's symlink, so its modules are named by their real path seen from the copy
 * (`../../../work/main/node_modules/…`).
 */
export function shownModule(name: string): string {
  const root = `${ROOT.replace(/^\/|\/$/g, '')}/`
  const fromTop = name.replace(/^(\.\.\/)+/, '')
  return fromTop.startsWith(root) ? `./${fromTop.slice(root.length)}` : name
}

/** What the bundle is made of: every file it is made from. */
function sourcesHash(): string {
  const hash = createHash('sha256')
  const add = (path: string) => {
    const entries = readdirSync(path, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))
    for (const entry of entries) {
      const child = join(path, entry.name)
      if (entry.isDirectory()) add(child)
      else hash.update(relative(ROOT, child)).update('\0').update(readFileSync(child)).update('\0')
    }
  }
  for (const name of COPIED) {
    const path = join(ROOT, name)
    if (statSync(path).isDirectory()) add(path)
    else hash.update(name).update('\0').update(readFileSync(path)).update('\0')
  }
  return hash.digest('hex').slice(0, 12)
}
