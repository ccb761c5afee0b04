import { createHash } from 'node:crypto'
import type { Prepared } from '../config/prepare.js'
import { serverTemplate } from '../config/server-config.js'
import { FileLimits, readBoundedFile } from '../util/read-file.js'

/**
 * What a resumed attempt must share with the journal it reuses: the suite, how runs are bounded,
 * and the server's working directory and the names of its variables and headers (their values
 * are secrets and stay out of any hash).
 */
export function journalHash(prepared: Prepared): string {
  const server = serverTemplate(prepared.server)
  const base = server.kind === 'stdio' ? [server.cwd ?? null, Object.keys(server.env).sort()] : [Object.keys(server.headers).sort()]
  // The directories a root-driven server serves are part of what its runs did (unset: the hash is as before).
  const shape = server.roots ? [...base, server.roots] : base
  // How much of each tool result the model saw (the input can set it apart from the YAML).
  return createHash('sha256').update(JSON.stringify([suiteHash(prepared), prepared.options.maxSteps, shape, prepared.suite.max_tool_result_chars])).digest('hex').slice(0, 16)
}

/**
 * What the recorded LLM answers belong to: the suite file, the models and judge, and the server
 * command or URL (not its env or headers). The tool list needs no part here: it is in every
 * recorded request, so a changed server never replays an old answer.
 */
export function suiteHash(prepared: Prepared): string {
  const { suite, options } = prepared
  // As written: a secret substituted into args or the URL must not change the hash.
  const server = serverTemplate(prepared.server)
  const serverId = server.kind === 'stdio' ? [server.command, ...server.args] : [server.url]
  return createHash('sha256')
    .update(JSON.stringify([options.evalCases === '' ? '' : readBoundedFile(options.evalCases, FileLimits.suite), suite.models, suite.judge_model, serverId, options.baseUrl]))
    .digest('hex')
    .slice(0, 16)
}
