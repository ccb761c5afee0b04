import { Document, isCollection, isMap, isPair, isScalar, isSeq, type Node, type Pair } from 'yaml'
import { line, type JsonObject, type Note, type Path } from './notes.js'

/**
 * The output as YAML text, with each note as a comment at its place: before the node it names,
 * or, when that node is not there (a dropped item), after its nearest existing ancestor.
 * `header` opens the file.
 */
export function renderWithNotes(value: JsonObject, notes: Note[], header: string[]): string {
  const doc = new Document(value)
  flowMatchers(doc.contents)
  const before = new Map<Node | Pair, string[]>()
  const after = new Map<Node, string[]>()
  const top: string[] = [...header]
  for (const note of notes) {
    const text = line(note)
    if (note.at.length === 0) {
      top.push(text)
      continue
    }
    const { node, complete } = locate(doc, note.at)
    if (node === null) top.push(text)
    else push(complete ? before : after, node, text)
  }
  for (const [node, lines] of before) setBefore(node, lines)
  for (const [node, lines] of after) {
    if (isCollection(node) && node.items.length === 0) {
      // An empty flow collection (`[]`) takes a trailing comment badly: the comment goes above its key.
      const pair = pairOf(doc, node)
      if (pair) {
        setBefore(pair, lines)
        continue
      }
    }
    node.comment = join(node.comment, lines)
  }
  if (top.length > 0) doc.commentBefore = top.map(comment).join('\n')
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false })
}

const comment = (text: string) => ` ${text.replace(/\r?\n/g, ' ')}`
const join = (existing: string | null | undefined, lines: string[]) => [...(existing ? [existing] : []), ...lines.map(comment)].join('\n')

function push<K>(map: Map<K, string[]>, key: K, text: string): void {
  const list = map.get(key)
  if (list) list.push(text)
  else map.set(key, [text])
}

/** Before a seq item, the item; before a map entry, its key (so the comment sits above the key's line). */
function setBefore(target: Node | Pair, lines: string[]): void {
  const node = isPair(target) ? (isScalar(target.key) ? target.key : null) : target
  if (node) node.commentBefore = join(node.commentBefore, lines)
}

/** The node at `path` (complete), else the deepest ancestor that exists. For a map key, the pair. */
function locate(doc: Document, path: Path): { node: Node | Pair | null; complete: boolean } {
  let current: Node | null = doc.contents as Node | null
  for (let i = 0; i < path.length; i++) {
    const step = path[i]
    const last = i === path.length - 1
    if (isSeq(current) && typeof step === 'number' && step < current.items.length) {
      current = current.items[step] as Node
    } else if (isMap(current) && typeof step === 'string') {
      const pair = current.items.find((p) => isScalar(p.key) && p.key.value === step)
      if (!pair) return { node: current, complete: false }
      if (last) return { node: pair, complete: true }
      current = pair.value as Node | null
    } else {
      return { node: current, complete: false }
    }
  }
  return { node: current, complete: true }
}

function pairOf(doc: Document, node: Node): Pair | null {
  let found: Pair | null = null
  const visit = (n: unknown) => {
    if (found) return
    if (isMap(n)) {
      for (const p of n.items) {
        if (p.value === node) found = p
        else visit(p.value)
      }
    }
    else if (isSeq(n)) n.items.forEach(visit)
  }
  visit(doc.contents)
  return found
}

/** A `json` matcher (`{ equals: Tokyo }`) and an `assert` rule read best on one line each. */
function flowMatchers(node: unknown): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? pair.key.value : undefined
      if (key === 'json' && isMap(pair.value)) for (const item of pair.value.items) if (isCollection(item.value)) item.value.flow = true
      flowMatchers(pair.value)
    }
  } else if (isSeq(node)) node.items.forEach(flowMatchers)
}
