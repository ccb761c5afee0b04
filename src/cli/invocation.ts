import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { CLI_ANYWHERE, CLI_IN_CLONE } from '../constants.js'
import { findPackageRoot } from '../demo/example.js'

/**
 * The command a hint or a next step gives for running the CLI, so it runs where the user is: in a
 * clone of this repository (its committed dist/cli needs no install), `node dist/cli/index.js`;
 * anywhere else (the user's own repository), the npx command that fetches the tagged repository.
 * No `mcp-server-evals` command is installed by either, so neither is ever printed bare.
 */
export function cliCommand(cwd: string = process.cwd()): string {
  return findPackageRoot([cwd]) === cwd && existsSync(join(cwd, 'dist', 'cli', 'index.js')) ? CLI_IN_CLONE : CLI_ANYWHERE
}
