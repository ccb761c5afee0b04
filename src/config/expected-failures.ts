import { isMap, isScalar, isSeq, type Node } from 'yaml'
import { FileLimits, readBoundedFile } from '../util/read-file.js'
import { nearest } from '../util/suggest.js'
import { ConfigError, ConfigErrors } from './errors.js'
import { parseYamlFile, type ParsedYaml, type YamlPath } from './yaml-document.js'

// conformance_expected_failures: the team's list of the conformance checks it knows it fails, in
// the official suite's --expected-failures format (a list, or `server:` and `client:` lists), so
// one file can serve both. What becomes of each entry is decided after the checks (conformance/).

/** One entry as written: `check-id` or `check-id:method`, and its line in the file. */
export interface ExpectedFailureSpec {
  entry: string
  line: number
  check: string
  /** A JSON-RPC method (`tools/call`), or `HTTP GET`; null: the whole check. */
  method: string | null
}

/** The file, parsed: its entries, and what was read but not used (said once, as a notice). */
export interface ExpectedFailuresFile {
  file: string
  entries: ExpectedFailureSpec[]
  /** e.g. "the client: list (3 entries) is for the official suite's client mode; ignored"; null when nothing was. */
  notice: string | null
}

/** A check id as the report prints it (stable kebab-case). */
const CHECK_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/
const KEYS = ['server', 'client'] as const

/** Read and parse the file that `input` names; every problem names the file, its line and what is wrong. */
export function readExpectedFailures(path: string, input: string): ExpectedFailuresFile {
  let text: string
  try {
    text = readBoundedFile(path, FileLimits.suite)
  } catch (error) {
    throw new ConfigError(`cannot read the expected-failures file: ${(error as Error).message}`, { input, file: path })
  }
  try {
    return parseExpectedFailures(text, path)
  } catch (error) {
    if (error instanceof ConfigErrors) throw new ConfigErrors(error.errors.map((e) => new ConfigError(e.detail, { ...e.where, input })))
    if (error instanceof ConfigError) throw new ConfigError(error.detail, { ...error.where, input })
    throw error
  }
}

/**
 * Parse the text of an expected-failures file: a YAML list of entries, or a mapping whose
 * `server:` list holds them (`client:` is the official suite's client mode: ignored, with a
 * notice). Comments are YAML's. Throws ConfigErrors, each with the line and what is wrong.
 */
export function parseExpectedFailures(text: string, file: string): ExpectedFailuresFile {
  const parsed = parseYamlFile(text, file)
  const root = parsed.doc.contents as Node | null
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return { file, entries: [], notice: `${file} lists no expected failures` }
  if (isSeq(root)) return { file, entries: entriesOf(parsed, []), notice: null }
  if (!isMap(root)) throw new ConfigErrors([new ConfigError('must be a list of check ids (`- check-id` or `- check-id:method`), or a mapping with a `server:` list', parsed.at(root.range?.[0]))])
  const problems: ConfigError[] = []
  let notice: string | null = null
  let entries: ExpectedFailureSpec[] = []
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : ''
    const where = parsed.at((pair.key as Node | null)?.range?.[0])
    if (!(KEYS as readonly string[]).includes(key)) {
      const guess = nearest(key, KEYS)
      problems.push(new ConfigError(`unknown key \`${key}\`: the file holds a \`server:\` list (and the official suite's \`client:\` list, ignored here)${guess ? `; did you mean \`${guess}\`?` : ''}`, where))
      continue
    }
    const value = pair.value as Node | null
    if (value !== null && !isSeq(value) && !(isScalar(value) && value.value === null)) {
      problems.push(new ConfigError(`\`${key}:\` must be a list of entries (\`- check-id\` or \`- check-id:method\`)`, where))
      continue
    }
    if (key === 'client') {
      const n = isSeq(value) ? value.items.length : 0
      notice = `${file}: the client: list (${n} ${n === 1 ? 'entry' : 'entries'}) is for the official suite's client mode; ignored (this tool checks servers)`
    } else {
      try {
        entries = isSeq(value) ? entriesOf(parsed, ['server']) : []
      } catch (error) {
        if (!(error instanceof ConfigErrors)) throw error
        problems.push(...error.errors)
      }
    }
  }
  if (problems.length) throw new ConfigErrors(problems)
  return { file, entries, notice }
}

/** The entries of the list at `path`: each a string, well formed, listed once. */
function entriesOf(parsed: ParsedYaml, path: YamlPath): ExpectedFailureSpec[] {
  const list = path.length === 0 ? parsed.doc.contents : parsed.doc.getIn(path, true)
  const items = isSeq(list) ? (list.items as (Node | null)[]) : []
  const problems: ConfigError[] = []
  const entries: ExpectedFailureSpec[] = []
  items.forEach((item, i) => {
    // file:line:column says where; the YAML path ([2]) would add nothing.
    const where = { ...parsed.locate([...path, i]), path: undefined }
    const line = where.line ?? 1
    const problem = entryProblem(item)
    if (problem) return void problems.push(new ConfigError(problem, where))
    const entry = String((item as { value: unknown }).value).trim()
    const colon = entry.indexOf(':')
    const check = (colon === -1 ? entry : entry.slice(0, colon)).trim()
    const method = colon === -1 ? null : entry.slice(colon + 1).trim()
    if (!CHECK_ID.test(check)) return void problems.push(new ConfigError(`\`${entry}\`: \`${check}\` is not a check id (kebab-case, as the report prints it: \`unknown-tool-error\`)`, where))
    if (method === '') return void problems.push(new ConfigError(`\`${entry}\` has nothing after the colon; write \`${check}\` for the whole check, or \`${check}:tools/call\` for one method`, where))
    const same = entries.find((e) => e.check === check && e.method === method)
    if (same) return void problems.push(new ConfigError(`\`${entry}\` is listed twice (also on line ${same.line}); remove one`, where))
    const whole = entries.find((e) => e.check === check && (e.method === null) !== (method === null))
    if (whole) {
      const [all, one] = method === null ? [entry, whole.entry] : [whole.entry, entry]
      return void problems.push(new ConfigError(`\`${all}\` expects the whole check to fail, so \`${one}\` (line ${whole.line}) is redundant; remove one or the other`, where))
    }
    entries.push({ entry: method === null ? check : `${check}:${method}`, line, check, method })
  })
  if (problems.length) throw new ConfigErrors(problems)
  return entries
}

/** Why an item of the list is not an entry (a string), or null when it is. */
function entryProblem(item: Node | null): string | null {
  if (item === null || (isScalar(item) && (item.value === null || String(item.value).trim() === ''))) return 'this entry is empty; write a check id (`- check-id`) or remove the line'
  if (isMap(item)) {
    const pair = item.items.length === 1 ? item.items[0] : undefined
    const [key, value] = [pair && isScalar(pair.key) ? pair.key.value : undefined, pair && isScalar(pair.value) ? pair.value.value : undefined]
    if (key !== undefined && value !== undefined && value !== null && String(value) !== '') {
      return `\`${String(key)}: ${String(value)}\` reads as a mapping; did you mean \`${String(key)}:${String(value)}\`? Remove the space after the colon`
    }
    if (key !== undefined && (value === null || value === undefined) && pair && (pair.value === null || isScalar(pair.value))) {
      return `\`${String(key)}:\` has nothing after the colon; write \`${String(key)}\` for the whole check, or \`${String(key)}:tools/call\` for one method`
    }
    return 'an entry is a string (`check-id` or `check-id:method`), not a mapping; a check:method entry takes no space after the colon'
  }
  if (isSeq(item)) return 'an entry is a string (`check-id` or `check-id:method`), not a list'
  if (isScalar(item) && typeof item.value !== 'string') return `\`${String(item.value)}\` is not a check id (kebab-case, as the report prints it)`
  return null
}
