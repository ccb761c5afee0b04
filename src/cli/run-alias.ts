/**
 * `mcp-server-evals run …`: @mcp-use/evals' own command line (`npx @mcp-use/evals run
 * --eval-suite smoke.suite.yaml --output eval-results`), read as ours. Its `--output` is the
 * output directory, so it becomes `--output-dir`, and its `--skip-agent` (the checks only) is our
 * `--only-tool-tests`; every other flag it takes has our name already (`--eval-suite`,
 * `--server-url`, `--server-config`, `--filter`, `--models`, `--judge-model`, `--max-steps`).
 * Without `run` first, the arguments are ours, unchanged.
 */
export function fromUpstreamRun(argv: readonly string[]): string[] {
  if (argv[0] !== 'run') return [...argv]
  const out: string[] = []
  for (const arg of argv.slice(1)) {
    if (arg === '--output') out.push('--output-dir')
    else if (arg === '--skip-agent') out.push('--only-tool-tests')
    else if (arg.startsWith('--output=')) out.push(`--output-dir=${arg.slice('--output='.length)}`)
    else out.push(arg)
  }
  return out
}
