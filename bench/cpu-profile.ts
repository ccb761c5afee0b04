// What a harness spent its main thread on before a moment (its first server spawn): a V8 CPU
// profile (`node --cpu-prof`) read against the bundle. Each sample is one of
//   node start-up  (Node's own bootstrap and module loader, before and around the bundle),
//   module loading (under webpack's require, `__nccwpck_require__`: a module's body running as it
//                   is first imported, a lazy chunk included),
//   harness work   (a function of the entry, src/main.ts or src/cli/main.ts, on the stack — it
//                   runs from the root module's body — or code resumed after an await),
//   GC / idle      (V8's garbage collector, and the thread waiting: "(idle)", "(program)"),
// and the module-loading samples are charged twice over: to the outermost package on the stack
// (the dependency of src/ it happened under, its own dependencies included), and to the
// innermost (whose code it was). Webpack's runtime frames are looked through; their own time is
// mostly V8 compiling each module's function as it first runs.
import type { Bundle } from './bundle.js'
import { inBundle, moduleLocator, packageOf } from './bundle-map.js'

interface CpuNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

/** The CPU profile V8 writes (.cpuprofile); times in µs on the monotonic clock. */
export interface CpuProfile {
  nodes: CpuNode[]
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

/** Frames of webpack's runtime and the bundle's own top: not a package of the sources. */
const RUNTIME = new Set(['webpack runtime', 'index.js (top)'])

/** The modules whose functions are the harness at work (the action's and the CLI's). */
const ENTRIES = new Set(['./src/main.ts', './src/cli/main.ts'])

export type Phase = 'node start-up' | 'module loading' | 'harness work' | 'GC / idle'

export interface StartUp {
  /** ms of each phase up to `untilMs`. */
  phases: Record<Phase, number>
  /** ms of module loading by package, largest first: under it (outermost), and its own (innermost). */
  loading: { package: string; under_ms: number; own_ms: number }[]
  /** ms of harness work by its innermost function of src/, largest first. */
  work: [string, number][]
}

/** Each sample: when it was taken (ms, the process.hrtime clock), the time it stands for, its stack from the leaf. */
function* samplesOf(profile: CpuProfile): Generator<{ at_ms: number; ms: number; stack: CpuNode[] }> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  let t = profile.startTime
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]
    const stack: CpuNode[] = []
    for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!)
    yield { at_ms: t / 1000, ms: (profile.timeDeltas[i + 1] ?? 0) / 1000, stack }
  }
}

const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms)
const largestFirst = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1])

/** The main thread's time from the profile's start to `untilMs` (same clock as process.hrtime, in ms). */
export function startUpOf(profile: CpuProfile, bundle: Bundle, untilMs: number): StartUp {
  const locate = moduleLocator(bundle)
  const phases: Record<Phase, number> = { 'node start-up': 0, 'module loading': 0, 'harness work': 0, 'GC / idle': 0 }
  const under = new Map<string, number>()
  const own = new Map<string, number>()
  const work = new Map<string, number>()
  for (const { at_ms, ms, stack } of samplesOf(profile)) {
    if (at_ms > untilMs) break
    const leaf = stack[0].callFrame
    if (['(garbage collector)', '(idle)', '(program)'].includes(leaf.functionName)) {
      phases['GC / idle'] += ms
      continue
    }
    const ownFrames = stack.filter((n) => inBundle(bundle, n.callFrame.url))
    if (ownFrames.length === 0) {
      phases['node start-up'] += ms
      continue
    }
    const requiring = stack.some((n) => n.callFrame.functionName === '__nccwpck_require__')
    const inEntry = ownFrames.some((n) => n.callFrame.functionName !== '' && ENTRIES.has(locate(n.callFrame.url, n.callFrame.lineNumber)))
    const modules = ownFrames.map((n) => ({ frame: n.callFrame, module: locate(n.callFrame.url, n.callFrame.lineNumber) }))
    if (!requiring || inEntry) {
      phases['harness work'] += ms
      const mine = modules.find((m) => m.module.startsWith('./src/'))
      add(work, mine ? `${mine.frame.functionName || '(top level)'} (${mine.module})` : `${modules[0].frame.functionName} (${modules[0].module})`, ms)
      continue
    }
    phases['module loading'] += ms
    const packages = modules.map((m) => packageOf(m.module)).filter((p) => !RUNTIME.has(p))
    const outermost = [...packages].reverse().find((p) => !p.startsWith('src')) ?? packages.at(-1) ?? 'webpack runtime'
    add(under, outermost, ms)
    add(own, packageOf(modules[0].module), ms)
  }
  const names = new Set([...under.keys(), ...own.keys()])
  const loading = [...names].map((name) => ({ package: name, under_ms: under.get(name) ?? 0, own_ms: own.get(name) ?? 0 }))
  loading.sort((a, b) => Math.max(b.under_ms, b.own_ms) - Math.max(a.under_ms, a.own_ms))
  return { phases, loading, work: largestFirst(work) }
}

/** Where a whole profile's main-thread time went: by package (the innermost frame of the bundle), and by function. */
export function mainThreadOf(profile: CpuProfile, bundle: Bundle): { total_ms: number; packages: [string, number][]; functions: [string, number][] } {
  const locate = moduleLocator(bundle)
  const packages = new Map<string, number>()
  const functions = new Map<string, number>()
  let total_ms = 0
  for (const { ms, stack } of samplesOf(profile)) {
    total_ms += ms
    const leaf = stack[0].callFrame
    if (leaf.functionName.startsWith('(')) {
      add(packages, leaf.functionName, ms)
      continue
    }
    const own = stack.find((n) => inBundle(bundle, n.callFrame.url))
    if (!own) {
      add(packages, 'node internals', ms)
      add(functions, `${leaf.functionName || '(anonymous)'} (${leaf.url || 'native'})`, ms)
      continue
    }
    const module = locate(own.callFrame.url, own.callFrame.lineNumber)
    add(packages, packageOf(module), ms)
    add(functions, `${own.callFrame.functionName || '(anonymous)'} (${module})`, ms)
  }
  return { total_ms, packages: largestFirst(packages), functions: largestFirst(functions) }
}
