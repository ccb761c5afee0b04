import { describe, expect, test } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { fixturePath } from '../__fixtures__/harness.js'

// The shape of src/ that docs/architecture.md describes, checked on the sources themselves. The
// direction of imports between folders is ESLint's (eslint.config.js, no-restricted-imports);
// what a per-file lint rule cannot see — a cycle, a file grown too large — is checked here.

const SRC = fixturePath('../src')
const MAX_LINES = 450
const MAX_EVALUATE_LINES = 250

const sourceFiles = (): string[] =>
  (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join(SRC, f))

/** Every relative import and re-export of a file (type-only ones too: a cycle of types is a cycle of design), resolved to a file. */
function relativeImports(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2])
  return specifiers.map((s) => {
    const path = normalize(join(dirname(file), s.replace(/\.js$/, '.ts')))
    const index = path.replace(/\.ts$/, '/index.ts')
    return !existsSync(path) && existsSync(index) ? index : path
  })
}

/** The strongly connected components of more than one file (Tarjan), each as paths relative to src/. */
function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (v: string) => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      component.push(w)
    } while (w !== v)
    if (component.length > 1) cycles.push(component.map((f) => relative(SRC, f)).sort())
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return cycles
}

describe('the import graph of src/', () => {
  test('the cycle finder finds a cycle, and only the files in it', () => {
    const a = join(SRC, 'a.ts'), b = join(SRC, 'b.ts'), c = join(SRC, 'c.ts')
    expect(importCycles(new Map([[a, [b]], [b, [a]], [c, [a]]]))).toEqual([['a.ts', 'b.ts']])
    expect(importCycles(new Map([[a, [b]], [b, [c]], [c, []]]))).toEqual([])
  })

  test('imports are read with their type-only and dynamic forms', () => {
    const file = join(SRC, 'x/y.ts')
    const text = "import type { A } from '../results/types.js'\nexport { b } from './b.js'\nconst c = await import('../c.js')\nimport x from 'node:fs'\n"
    expect(relativeImports(file, text).map((f) => relative(SRC, f))).toEqual(['results/types.ts', 'x/b.ts', 'c.ts'])
  })

  test('has no import cycle', () => {
    const graph = new Map(sourceFiles().map((f) => [f, relativeImports(f, readFileSync(f, 'utf8'))]))
    expect(importCycles(graph)).toEqual([])
  })
})

describe('the size of a module', () => {
  test(`no source file is over ${MAX_LINES} lines`, () => {
    const large = sourceFiles()
      .map((f) => ({ file: relative(SRC, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES)
    expect(large).toEqual([])
  })

  test(`src/evaluate.ts orchestrates and nothing else: at most ${MAX_EVALUATE_LINES} lines`, () => {
    expect(readFileSync(join(SRC, 'evaluate.ts'), 'utf8').split('\n').length - 1).toBeLessThanOrEqual(MAX_EVALUATE_LINES)
  })
})
