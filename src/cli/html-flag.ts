import { dirname, join } from 'node:path'
import { ConfigError } from '../config/errors.js'
import { Defaults, Flags } from '../constants.js'
import { shardFileName, type Shard } from '../config/shard.js'

/** `--html [PATH]` and `--no-html`, for every command that writes the report (run, report, merge). */
export const HTML_OPTIONS = {
  html: { type: 'string' },
  'no-html': { type: 'boolean' }
} as const

/** The help text's lines for them (the same in each command's usage). */
export const HTML_USAGE = `  --html [PATH]               the HTML report, one self-contained page (default: eval-report.html beside --report)
  --no-html                   no HTML report`

/**
 * The arguments with a bare `--html` (last, or followed by another flag) made `--html=`: the
 * HTML report is written by default, so `--html` alone only says so, where it is by default.
 */
export function withBareHtml(argv: readonly string[]): string[] {
  return argv.map((arg, i) => (arg === Flags.Html && (i === argv.length - 1 || argv[i + 1].startsWith('-')) ? `${Flags.Html}=` : arg))
}

/**
 * Where the HTML report goes: `--html PATH`, else eval-report.html beside the Markdown report (a
 * shard's with its suffix); undefined with `--no-html`. Both flags at once are a usage error.
 */
export function htmlPathOf(values: { html?: string | boolean; 'no-html'?: string | boolean }, reportPath: string, shard: Shard | null = null): string | undefined {
  const given = typeof values.html === 'string' ? values.html.trim() : undefined
  if (values['no-html']) {
    if (given !== undefined) throw new ConfigError(`cannot be combined with ${Flags.Html}`, { input: Flags.NoHtml })
    return undefined
  }
  return given || join(dirname(reportPath), shardFileName(Defaults.HtmlPath, shard))
}
