import { isMap, isScalar, LineCounter, parse, parseDocument, type Document, type Node } from 'yaml'
import { ConfigError, ConfigErrors } from '../config/errors.js'
import { parseSuite } from '../config/suite.js'
import type { Json } from '../config/types.js'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { dotted, type Path } from './notes.js'
import { v1ShapeProblems } from './v1-shape.js'
import { API_VERSION, type V1Suite } from './v1-types.js'

export type SuiteFormat = 'eval-cases' | 'evals-v1'

export type ReadSuite = { format: 'evals-v1'; suite: V1Suite } | { format: 'eval-cases'; raw: Record<string, Json> }

/** Which format a suite's text is in, by its content: an `apiVersion: mcp-use.com/evals/v1` mapping is evals/v1. */
export function formatOfText(text: string): SuiteFormat {
  try {
    const doc = parseDocument(text)
    const contents = doc.contents
    if (isMap(contents)) {
      const pair = contents.items.find((p) => isScalar(p.key) && p.key.value === 'apiVersion')
      if (pair && isScalar(pair.value) && pair.value.value === API_VERSION) return 'evals-v1'
    }
  } catch {
    // Not YAML at all: the eval_cases reader says why.
  }
  return 'eval-cases'
}

/** Read a suite file of either format; a bad one is a ConfigError naming the file, line and path. */
export function readSuiteFile(file: string): ReadSuite {
  let text: string
  try {
    text = readBoundedFile(file, FileLimits.suite)
  } catch (error) {
    throw new ConfigError(`cannot read the suite: ${(error as Error).message}`, { file })
  }
  return readSuiteText(text, file)
}

export function readSuiteText(text: string, file: string): ReadSuite {
  if (formatOfText(text) === 'eval-cases') {
    // The loader's every check (the schema, the patterns, the ids), with its file:line:column errors.
    parseSuite(text, file)
    return { format: 'eval-cases', raw: parse(text, { maxAliasCount: 100 }) as Record<string, Json> }
  }
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false })
  if (doc.errors.length > 0) {
    throw new ConfigErrors(
      doc.errors.map((e) => {
        const pos = e.linePos?.[0]
        return new ConfigError(`invalid YAML: ${e.message.split('\n')[0]}`, { file, line: pos?.line, column: pos?.col })
      })
    )
  }
  const value = doc.toJS({ maxAliasCount: 100 }) as unknown
  const problems = v1ShapeProblems(value)
  if (problems.length > 0) {
    throw new ConfigErrors(problems.map((p) => new ConfigError(p.message, { file, ...position(doc, lineCounter, p.path), path: dotted(p.path) || undefined })))
  }
  return { format: 'evals-v1', suite: value as V1Suite }
}

/** The line and column of the node at `path` (its key for a missing or unknown key), else of its nearest ancestor. */
function position(doc: Document, lines: LineCounter, path: Path): { line?: number; column?: number } {
  for (let n = path.length; n >= 0; n--) {
    const at = path.slice(0, n)
    const node = (at.length === 0 ? doc.contents : doc.getIn(at, true)) as Node | undefined
    const keyNode = keyAt(doc, at)
    const range = (keyNode ?? node)?.range
    if (range) {
      const { line, col } = lines.linePos(range[0])
      return { line, column: col }
    }
  }
  return {}
}

function keyAt(doc: Document, path: Path): Node | undefined {
  if (path.length === 0 || typeof path[path.length - 1] !== 'string') return undefined
  const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true)
  if (!isMap(parent)) return undefined
  return parent.items.find((p) => isScalar(p.key) && p.key.value === path[path.length - 1])?.key as Node | undefined
}
