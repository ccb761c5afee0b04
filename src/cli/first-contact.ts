import { CLI_IN_CLONE } from '../constants.js'
import { nearest } from '../util/suggest.js'
import { someOf } from '../util/words.js'

// What the CLI says to someone meeting it for the first time: where to start, a mistyped
// command, a demo run on a suite the demo model has no script for.

/** What a `--demo` report says first: every score, token count and cost in it is the scripted demo model's. */
export const DEMO_REPORT_NOTE =
  '> **Demo run (`--demo`):** the model is a scripted stand-in (examples/demo-model/brain.ts), not a real model: its scores, tokens and costs below are simulated and say nothing about any real model.'

/** The warning, before anything runs, that the demo model has no script for some of the suite's cases. */
export function demoDoesNotKnow(unknown: readonly string[], total: number, file: string): string {
  const n = unknown.length
  const which = n < total ? `${n} of the ${total} cases` : total === 1 ? 'the case' : `all ${total} cases`
  const one = n === 1
  return `--demo: the demo model has scripts for the bundled example's cases only, and ${which} in ${file} (${someOf(unknown)}) ${one ? 'has' : 'have'} none: it answers "I cannot help with that.", so ${one ? 'it fails' : 'they fail'} whatever the server does; to evaluate this suite, give a real model instead of --demo (--api-key, or --base-url)`
}

/** The subcommands (`run` is @mcp-use/evals' spelling of an evaluation). */
const COMMANDS = ['report', 'merge', 'init', 'convert', 'run']

/** What to do first, for a run with no arguments: the demo, a drafted suite, an evaluation, the help. */
export function firstSteps(cmd: string): string {
  return [
    'MCP Server Evals: protocol conformance, tool tests and real-model tool use for an MCP server.',
    'Nothing was given to evaluate. To start:',
    '  Try it now, with no key and no network (a scripted demo model):',
    // In a clone the bundled example server needs its packages: npm ci first.
    `    ${cmd === CLI_IN_CLONE ? 'npm ci && ' : ''}${cmd} --demo`,
    "  Draft a suite from your server's own tools:",
    `    ${cmd} init --server-config '{"command":"node","args":["server.js"]}'`,
    '  Evaluate your server with a suite:',
    `    ${cmd} --server-config <json|file> --eval-cases eval_cases.yaml`,
    '  Every option:',
    `    ${cmd} --help`,
    ''
  ].join('\n')
}

/**
 * The error for a first argument that is a word, not a flag: a subcommand mistyped (`inti`), with a
 * did-you-mean, or a stray word; null when it is a flag or a real command. Positional arguments
 * take no other place in an evaluation's command line.
 */
export function unknownCommand(word: string): string | null {
  if (word.startsWith('-') || COMMANDS.includes(word)) return null
  const suggestion = nearest(word, COMMANDS)
  return `unknown command '${word}'${suggestion ? `; did you mean ${suggestion}?` : ''} (the commands: ${COMMANDS.join(', ')}; an evaluation takes flags only)`
}
