// Which module of the sources a line of the bundle is, for reading a CPU or heap profile of it:
// ncc (webpack) marks each CommonJS module with `/***/ <id>:` (named in the bundle's
// modules.json) and each ES module it concatenated with `// CONCATENATED MODULE: <path>`.
import { readFileSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { shownModule, type Bundle } from './bundle.js'

interface Marker {
  line: number
  name: string
}

/** A function from a profile frame (its script URL, 0-based line) to the module it is in, or the script's own name. */
export function moduleLocator(bundle: Bundle): (url: string, line: number) => string {
  const names = bundle.modules ? (JSON.parse(readFileSync(bundle.modules, 'utf8')) as Record<string, string>) : {}
  const dir = dirname(bundle.entry)
  const files = new Map<string, Marker[] | null>()
  const markersOf = (path: string): Marker[] | null => {
    if (!files.has(path)) {
      let markers: Marker[] | null = null
      if (dirname(path) === dir) {
        markers = []
        readFileSync(path, 'utf8')
          .split('\n')
          .forEach((text, line) => {
            const cjs = /^\/\*\*\*\/ (\d+):/.exec(text)
            const esm = /^;?\/\/ CONCATENATED MODULE: (.*)$/.exec(text)
            if (cjs) markers!.push({ line, name: names[cjs[1]] ?? `module ${cjs[1]}` })
            else if (esm) markers!.push({ line, name: shownModule(esm[1]) })
            else if (text.startsWith('/******/')) markers!.push({ line, name: 'webpack runtime' })
          })
      }
      files.set(path, markers)
    }
    return files.get(path) ?? null
  }
  return (url, line) => {
    if (!url) return '(native)'
    if (!url.startsWith('file:')) return url.startsWith('node:') ? 'node internals' : url
    const path = fileURLToPath(url)
    const markers = markersOf(path)
    if (!markers) return path
    let found = `${basename(path)} (top)`
    for (const m of markers) {
      if (m.line > line) break
      found = m.name
    }
    return found
  }
}

/** The package a module belongs to (`@actions/artifact`, `openai`), or its source folder (`src/github`). */
export function packageOf(module: string): string {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(module)
  if (inModules) return inModules[1]
  const source = /^\.\/(src(?:\/[^/ ]+)?)(?:\/[^ ]*)?/.exec(module)
  if (source) return source[1].endsWith('.ts') ? 'src' : source[1]
  return module
}

/** The bundle's own directory: a frame in another script is not the harness's code. */
export const inBundle = (bundle: Bundle, url: string) => url.startsWith('file:') && dirname(fileURLToPath(url)) === dirname(bundle.entry)
