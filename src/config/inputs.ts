import { ConfigError } from './errors.js'
import { withRunDir } from './run-dir.js'
import { patternProblem, type Report, type YamlPath } from './expectations.js'
import { DEFAULT_MAX_INPUT_ROUNDS, type ElicitationRule, type InputKind, type InputSpec, type Json, type Suite } from './types.js'

/** The keys of a case that say what the server may ask and how it is answered, as the YAML has them. */
export interface RawInputs {
  elicitation?: { match: string; action: ElicitationRule['action']; content?: Record<string, Json> }[]
  sampling?: 'agent' | { text: string }
  roots?: string[]
  expect_input_requests?: InputKind[]
  max_input_rounds?: number
}

/** Where a YAML path is (file, line, column, dotted path), for an error found after loading. */
export type Locate = (path: YamlPath) => ConfigError['where']

/** Where each case that expects roots but declares none asks for them; server_config may still declare them. */
const rootsExpectedAt = new WeakMap<InputSpec, ConfigError['where']>()

/**
 * A case's input keys, normalised and checked for what the schema cannot say; null when it sets
 * none of them. Each expected kind must be answerable by the case, except roots, which
 * server_config may declare: checkRootsAnswerable() says whether it does, once both are known.
 */
export function inputsOf(raw: RawInputs, at: YamlPath, report: Report, locate: Locate): InputSpec | null {
  const { elicitation, sampling, roots, expect_input_requests: expected, max_input_rounds: maxRounds } = raw
  if (elicitation === undefined && sampling === undefined && roots === undefined && expected === undefined && maxRounds === undefined) return null
  const spec: InputSpec = {
    elicitation: elicitation === undefined ? null : elicitation.map((rule, j) => elicitationRuleOf(rule, [...at, 'elicitation', j], report)),
    sampling: sampling ?? null,
    roots: roots === undefined ? null : roots,
    expect_input_requests: expected ?? [],
    max_input_rounds: maxRounds ?? DEFAULT_MAX_INPUT_ROUNDS
  }
  roots?.forEach((uri, j) => {
    const problem = rootProblem(uri)
    if (problem) report(problem, [...at, 'roots', j])
  })
  spec.expect_input_requests.forEach((kind, k) => {
    const path = [...at, 'expect_input_requests', k]
    if (kind === 'roots') {
      if (spec.roots === null) rootsExpectedAt.set(spec, locate(path))
    } else if (spec[kind] === null) {
      report(`expects ${kind}, but the case declares no ${kind}: set ${kind}:`, path)
    }
  })
  return spec
}

/**
 * One error for each case that expects roots while neither it nor server_config declares any
 * (`serverRoots`: the roots of server_config, when it has them).
 */
export function checkRootsAnswerable(suite: Suite, serverRoots: string[] | undefined): ConfigError[] {
  if (serverRoots !== undefined && serverRoots.length > 0) return []
  return suite.cases.flatMap((c) => {
    if (!c.inputs || c.inputs.roots !== null || !c.inputs.expect_input_requests.includes('roots')) return []
    const where = rootsExpectedAt.get(c.inputs) ?? { file: suite.source, path: `case '${c.id}'` }
    return [new ConfigError('expects roots, but neither the case nor server_config declares roots: set roots: on the case or in server_config', where)]
  })
}

/** What an elicitation form field may hold, as the errors say it. */
export const FORM_VALUE = 'must be a string, number, boolean or array of strings (what a form field can hold)'

/** What `${RUN_DIR}` stands for while a root is checked: an absolute path, as the run's directory will be. */
const RUN_DIR_STAND_IN = '/run-dir'

/**
 * Why `uri` cannot be a root, or null when it can: the spec has roots be file:// URIs.
 * `${RUN_DIR}` (resolved per run) is checked as the absolute path it becomes, so
 * `file://${RUN_DIR}/data` passes and `file://host${RUN_DIR}` does not; the message quotes `uri`.
 */
export function rootProblem(uri: string): string | null {
  const resolved = withRunDir(uri, RUN_DIR_STAND_IN)
  let url: URL | undefined
  try {
    url = new URL(resolved)
  } catch {
    url = undefined
  }
  if (url?.protocol !== 'file:' || !/^file:\/\//i.test(resolved)) return `'${uri}' is not a file:// URI (roots are file:// URIs, e.g. file:///workspace)`
  if (resolved.includes('${')) return `'${uri}' holds a placeholder that nothing expands (roots in eval_cases are taken as written, apart from \${RUN_DIR}; in server_config only environment variables and \${RUN_DIR} are expanded)`
  // file://host/path is a remote share: servers read roots as local paths (fileURLToPath refuses a host on Linux).
  if (url.host !== '' && url.host !== 'localhost') return `'${uri}' names the host '${url.host}': a root is a local directory, file:///path (three slashes)`
  if (resolved.replace(/^file:\/\//i, '') === '') return `'${uri}' names no directory (file:///path)`
  return null
}

function elicitationRuleOf(raw: NonNullable<RawInputs['elicitation']>[number], at: YamlPath, report: Report): ElicitationRule {
  const problem = patternProblem(raw.match)
  if (problem) report(problem, [...at, 'match'])
  if (raw.action === 'accept' && raw.content === undefined) report("action accept needs content: the form's fields to send", [...at, 'action'])
  if (raw.action !== 'accept' && raw.content !== undefined) report(`content is sent with action accept only, not ${raw.action}`, [...at, 'content'])
  // The schema refuses objects and null; the items of an array (a multi-select) are checked here.
  for (const [field, value] of Object.entries(raw.content ?? {})) {
    if (Array.isArray(value) && !value.every((item) => typeof item === 'string')) report(FORM_VALUE, [...at, 'content', field])
  }
  return { match: raw.match, action: raw.action, content: raw.action === 'accept' ? (raw.content ?? null) : null }
}
