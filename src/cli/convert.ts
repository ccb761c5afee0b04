import { existsSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { docsLink } from '../constants.js'
import { ConfigError } from '../config/errors.js'
import { convertSuite } from '../convert/convert.js'
import { readSuiteFile, type SuiteFormat } from '../convert/read.js'
import { describeFlagError } from './parse-error.js'
import { cliCommand } from './invocation.js'

export const convertUsage = (cmd: string) => `${cmd} convert FILE [--to eval-cases|evals-v1] [--output PATH]: convert a suite between
eval-action's two formats, by its content: an evals/v1 suite (apiVersion: mcp-use.com/evals/v1)
becomes an eval_cases.yaml, an eval_cases.yaml an evals/v1 suite. What the other format has no
counterpart for is a comment at its place in the output and a line on stderr; where the meanings
differ, a comment says how.
  --to FORMAT                 the format wanted: refused when FILE is in it already
  --output PATH               write there (never over an existing file) instead of stdout
Exit 0 converted (with or without losses); 2 a bad flag, a bad suite (file:line), or PATH exists.
The reference: ${docsLink('cli.md#convert-between-eval_cases-and-evalsv1')}, the mapping: ${docsLink('migrating-from-eval-action.md#converting-between-the-formats')}`

const CONVERT_OPTIONS = {
  to: { type: 'string' },
  output: { type: 'string' },
  help: { type: 'boolean', short: 'h' }
} as const
const CONVERT_FLAGS = Object.keys(CONVERT_OPTIONS)
const FORMATS: readonly SuiteFormat[] = ['eval-cases', 'evals-v1']
const hintLine = () => `Run '${cliCommand()} convert --help' for the flags.`

interface IO {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
}

/** `convert`: read FILE, convert it to the other format, write it to stdout or --output. Returns the exit status. */
export function convertCommand(argv: string[], io: IO = process, cwd = process.cwd()): number {
  const fail = (message: string, hint = false) => {
    io.stderr.write(`error: ${message}\n${hint ? `${hintLine()}\n` : ''}`)
    return 2
  }
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] }
  try {
    parsed = parseArgs({ args: argv, options: CONVERT_OPTIONS, strict: true, allowPositionals: true })
  } catch (error) {
    return fail(describeFlagError(error as Error, CONVERT_FLAGS), true)
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.stdout.write(`${convertUsage(cliCommand())}\n`)
    return 0
  }
  if (positionals.length !== 1) return fail(positionals.length === 0 ? 'give the suite file to convert' : `give one suite file, not ${positionals.length}`, true)
  const to = values.to as string | undefined
  if (to !== undefined && !FORMATS.includes(to as SuiteFormat)) return fail(`--to: '${to}' is not a format (eval-cases or evals-v1)`, true)
  const output = values.output as string | undefined
  if (output !== undefined && output.trim() === '') return fail('--output: must not be empty', true)
  if (output !== undefined && existsSync(resolve(cwd, output))) return fail(`--output: ${output} already exists; convert never overwrites a file`)

  const file = positionals[0]
  let conversion
  try {
    const read = readSuiteFile(resolve(cwd, file))
    if (to !== undefined && read.format === to) return fail(`${file} is already ${to === 'evals-v1' ? 'an evals/v1 suite' : 'an eval_cases suite'}: nothing to convert`)
    conversion = convertSuite(read, file)
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message.split(resolve(cwd, file)).join(file))
    throw error
  }
  if (output === undefined) io.stdout.write(conversion.text)
  else {
    try {
      writeFileSync(resolve(cwd, output), conversion.text, { flag: 'wx' })
    } catch (error) {
      return fail(`cannot write ${output}: ${(error as Error).message}`)
    }
  }
  for (const line of conversion.losses) io.stderr.write(`${line}\n`)
  const needs = conversion.to === 'eval-cases' ? 'an eval_cases suite needs at least one tool test or case' : 'an evals/v1 suite needs at least one check or scenario'
  if (conversion.empty) io.stderr.write(`warning: nothing is left to run: ${needs} to load\n`)
  const target = conversion.to === 'evals-v1' ? 'an evals/v1 suite' : 'an eval_cases suite'
  io.stderr.write(`Converted ${file} to ${target}${output ? ` in ${output}` : ''}: ${conversion.losses.length === 0 ? 'nothing without a counterpart' : `${conversion.losses.length} item${conversion.losses.length === 1 ? '' : 's'} without a counterpart (above, and as comments in the output)`}.\n`)
  return 0
}
