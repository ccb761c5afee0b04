import { describe, expect, test } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'
import { CLI_ANYWHERE } from '../src/constants.js'
import { EXAMPLE_CASES, EXAMPLE_SERVER } from '../src/demo/example.js'

// `npx github:mcp-server-evals/mcp-server-evals#v1 …` installs what `npm pack` would pack of the
// tagged commit, with its `dependencies` and never its devDependencies, and runs the `bin` as it
// is (no prepare script, so nothing is built). What --demo needs must therefore be packed, and
// the example server's imports must be dependencies.
const root = fixturePath('..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  bin: Record<string, string>
  files: string[]
  engines: { node: string }
  scripts: Record<string, string>
  dependencies: Record<string, string>
}

describe('the package npx runs', () => {
  test('packs the committed CLI bundle and the bundled example --demo runs, and builds nothing on install', () => {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as [{ files: { path: string }[] }]
    const paths = packed.files.map((f) => f.path)
    expect(Object.values(pkg.bin)).toEqual(['dist/cli/index.js'])
    expect(paths).toEqual(expect.arrayContaining(['dist/cli/index.js', 'dist/cli/package.json', EXAMPLE_SERVER, EXAMPLE_CASES, 'examples/__snapshots__/two-days-in-tokyo.json']))
    // Nothing of the sources, tests or the action's own bundle: the CLI bundle is self-contained.
    expect(paths.filter((p) => /^(src|__tests__|__fixtures__|docs)\//.test(p) || p === 'dist/index.js')).toEqual([])
    expect(Object.keys(pkg.scripts).filter((s) => /^(prepare|prepack|postinstall|install|preinstall)$/.test(s))).toEqual([])
  })

  test("every package the example server imports is a dependency, so it starts in npx's install", () => {
    const source = readFileSync(join(root, EXAMPLE_SERVER), 'utf8')
    const imported = [...source.matchAll(/^import .* from '([^'.][^']*)'/gm)].map((m) => m[1].replace(/^(@[^/]+\/[^/]+|[^@/][^/]*).*$/, '$1'))
    expect(imported.length).toBeGreaterThan(0)
    for (const name of new Set(imported)) expect({ name, dependency: Object.hasOwn(pkg.dependencies, name) }).toEqual({ name, dependency: true })
  })

  test('the Node.js range is said once in the README, as engines.node says it', () => {
    expect(pkg.engines.node).toBe('>=22')
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    expect(readme.match(/Node\.js \d+ or later/g)).toEqual(['Node.js 22 or later'])
    expect(readme).toContain(`${CLI_ANYWHERE} --demo`)
  })
})
