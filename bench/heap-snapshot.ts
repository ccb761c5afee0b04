// What holds the runs in a harness's memory: a V8 heap snapshot (`node --heapsnapshot-signal`,
// taken near the end of an evaluation) read for the objects shaped like a run's record
// (`case_id`, `llm_calls`, `conversation`). It tells how many there are (several copies of each
// run show up as several objects), how much memory only they keep alive (what is reachable from
// them and not from the roots without passing through one: the set's retained size), and who
// holds them: each run's first retainer and up from it, by constructor and property name.
import { readFileSync } from 'node:fs'

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] }; node_count: number }
  nodes: number[]
  edges: number[]
  strings: string[]
}

export interface RunsInMemory {
  heap_mb: number
  runs: number
  /** Retained by the run objects as a set. */
  retained_mb: number
  /** Who holds them, from the outermost named holder down to the run's own (`JournalWriter.state → Object.runs → Map.table → (array)[i]`), with how many run objects each path holds, most first. */
  holders: [string, number][]
  /** The heap by kind of object (a constructor's name, or a string, array, closure, code…): the largest kinds, their count and self size in MB. */
  kinds: [string, number, number][]
}

export function runsInMemory(path: string): RunsInMemory {
  const s = JSON.parse(readFileSync(path, 'utf8')) as Snapshot
  const nf = s.snapshot.meta.node_fields
  const ef = s.snapshot.meta.edge_fields
  const N = nf.length
  const E = ef.length
  const nodeTypes = s.snapshot.meta.node_types[0]
  const edgeTypes = s.snapshot.meta.edge_types[0]
  const [nType, nName, nSize, nEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f))
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f))
  const count = s.nodes.length / N
  // Each node's first edge.
  const firstEdge = new Uint32Array(count + 1)
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e
    e += s.nodes[i * N + nEdges] * E
  }
  firstEdge[count] = s.edges.length
  const typeOf = (i: number) => nodeTypes[s.nodes[i * N + nType]]
  const nameOf = (i: number) => s.strings[s.nodes[i * N + nName]]
  const sizeOf = (i: number) => s.nodes[i * N + nSize]
  const edgeName = (e: number) => {
    const t = edgeTypes[s.edges[e + eType]]
    return t === 'element' || t === 'hidden' ? `[${s.edges[e + eName]}]` : s.strings[s.edges[e + eName]]
  }
  const strong = (e: number) => edgeTypes[s.edges[e + eType]] !== 'weak'

  // Run records: objects with the properties every run has.
  const isRun = new Uint8Array(count)
  let runs = 0
  for (let i = 0; i < count; i++) {
    if (typeOf(i) !== 'object') continue
    const props = new Set<string>()
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += E) if (edgeTypes[s.edges[e + eType]] === 'property') props.add(s.strings[s.edges[e + eName]])
    if (props.has('case_id') && props.has('llm_calls') && props.has('conversation')) {
      isRun[i] = 1
      runs++
    }
  }

  // Reachable from the root without passing through a run, then from the runs: the difference is theirs.
  const walk = (starts: number[], stopAtRuns: boolean) => {
    const seen = new Uint8Array(count)
    const stack = [...starts]
    for (const i of starts) seen[i] = 1
    while (stack.length) {
      const i = stack.pop()!
      for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += E) {
        if (!strong(e)) continue
        const to = s.edges[e + eTo] / N
        if (seen[to] || (stopAtRuns && isRun[to])) continue
        seen[to] = 1
        stack.push(to)
      }
    }
    return seen
  }
  const fromRoot = walk([0], true)
  const runIds = [...isRun.keys()].filter((i) => isRun[i])
  const fromRuns = walk(runIds, false)
  let retained = 0
  let heap = 0
  for (let i = 0; i < count; i++) {
    heap += sizeOf(i)
    if (fromRuns[i] && !fromRoot[i]) retained += sizeOf(i)
  }

  // Who holds them: each run's first retainer that is not a run, and up from there, named steps only.
  const retainer = new Int32Array(count).fill(-1)
  const via = new Int32Array(count).fill(-1)
  for (let i = 0; i < count; i++) {
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += E) {
      const to = s.edges[e + eTo] / N
      if (retainer[to] === -1 && strong(e) && !isRun[i] && i !== 0) {
        retainer[to] = i
        via[to] = e
      }
    }
  }
  const step = (holder: number, edge: number) => {
    const edgeType = edgeTypes[s.edges[edge + eType]]
    const name = nameOf(holder)
    const what = typeOf(holder) === 'object' || typeOf(holder) === 'closure' ? name || `(${typeOf(holder)})` : `(${typeOf(holder)})`
    const by = edgeType === 'property' || edgeType === 'context' ? `.${edgeName(edge)}` : edgeType === 'element' || /^\d+$/.test(edgeName(edge)) ? '[i]' : ''
    return `${what}${by}`
  }
  const holders = new Map<string, number>()
  for (const id of runIds) {
    const path: string[] = []
    for (let at = id, depth = 0; retainer[at] !== -1 && depth < 6; at = retainer[at], depth++) path.push(step(retainer[at], via[at]))
    const key = path.filter((p, i) => i === 0 || !p.startsWith('(')).slice(0, 4).reverse().join(' → ')
    holders.set(key, (holders.get(key) ?? 0) + 1)
  }
  const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10
  // What else the heap is: by constructor for objects and closures, by type for the rest.
  const kinds = new Map<string, [number, number]>()
  for (let i = 0; i < count; i++) {
    const type = typeOf(i)
    const kind = type === 'object' || type === 'closure' ? `${nameOf(i) || '(anonymous)'} (${type})` : `(${type})`
    const k = kinds.get(kind) ?? [0, 0]
    k[0]++
    k[1] += sizeOf(i)
    kinds.set(kind, k)
  }
  const largest = [...kinds].sort((a, b) => b[1][1] - a[1][1]).slice(0, 20).map(([kind, [n, bytes]]): [string, number, number] => [kind, n, mb(bytes)])
  return { heap_mb: mb(heap), runs, retained_mb: mb(retained), holders: [...holders].sort((a, b) => b[1] - a[1]).slice(0, 12), kinds: largest }
}
