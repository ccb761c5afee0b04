import type { RunResult } from '../results/types.js'

/** How many runs one line of the comment links to before it counts the rest. */
const RUNS_LINKED = 5

/**
 * Links from the sticky comment into the HTML report's anchors (`#run-17`,
 * `#check-unknown-tool-error`). The URL is the HTML artifact's, built from GitHub's context and
 * the artifact's id; the anchors from a run's index and a check's id (our catalog's, and only
 * when it is plain: letters, digits, `.`, `_`, `-`, `:`). Nothing else of the document goes into
 * a URL.
 */
export interface HtmlLinks {
  run(index: number): string
  check(id: string): string | null
}

/** A URL that is safe inside a Markdown link as it is: nothing that ends the link or breaks the line. */
const LINKABLE_URL = /^https?:\/\/[^\s()<>[\]`"'\\]+$/
const PLAIN_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/

/** The links into the page at `url`; null without one (then the comment carries none). */
export function htmlLinks(url: string | undefined): HtmlLinks | null {
  if (!url || !LINKABLE_URL.test(url) || url.includes('#')) return null
  return {
    run: (index) => `${url}#run-${Math.trunc(index)}`,
    check: (id) => (PLAIN_ID.test(id) ? `${url}#check-${id}` : null)
  }
}

/** " · [run #17](…)" or " · runs [#3](…), [#5](…) and 2 more": the runs' anchors in the page; '' without links. */
export function runLinks(runs: readonly Pick<RunResult, 'index'>[], links: HtmlLinks | null): string {
  if (!links || runs.length === 0) return ''
  if (runs.length === 1) return ` · [run #${runs[0].index}](${links.run(runs[0].index)})`
  const shown = runs.slice(0, RUNS_LINKED).map((r) => `[#${r.index}](${links.run(r.index)})`)
  const more = runs.length > RUNS_LINKED ? ` and ${runs.length - RUNS_LINKED} more` : ''
  return ` · runs ${shown.join(', ')}${more}`
}

/** " · [details](…#check-id)": a conformance finding's anchor in the page; '' without links. */
export function checkLink(id: string, links: HtmlLinks | null): string {
  const url = links?.check(id)
  return url ? ` · [details](${url})` : ''
}
