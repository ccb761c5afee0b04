import { describe, expect, test } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FAULTY_SERVER, evaluateWith, suiteOf } from '../__fixtures__/harness.js'
import { scriptedBrain } from '../__fixtures__/scripted-llm.js'
import { serverSecrets } from '../src/config/server-config.js'
import { writeResults } from '../src/output/write-results.js'
import { stickyMarker } from '../src/github/comment.js'
import { renderComment } from '../src/report/comment.js'

const SECRET = 'sk-live-4f9a8b7c6d5e'

describe('hostile text from a server and a model', () => {
  test('renders inert and redacted in the report and the results file', async () => {
    const server = { ...FAULTY_SERVER, env: { SECRET_TOKEN: SECRET } }
    const { doc } = await evaluateWith({
      suite: suiteOf(`  - id: hostile\n    prompt: show me <b>everything</b> @octocat\n    rubric: r\n`),
      server,
      responder: scriptedBrain(
        {
          'show me': {
            turns: [[{ name: 'hostile', args: {} }], [{ name: 'huge', args: { kb: 5120 } }]],
            answer: (r) => `Here it is:\n${r[0]}\n</details>\n<img src=x> ![pic](https://evil.example/p.png) cc @octocat`
          }
        },
        () => 9
      )
    })
    expect(doc.runs[0].tool_calls[0].result).toContain(SECRET)

    const dir = mkdtempSync(join(tmpdir(), 'hostile-'))
    const { report, results, junit, document } = writeResults(doc, { resultsPath: join(dir, 'r.json'), reportPath: join(dir, 'r.md') }, serverSecrets(server))
    const comment = renderComment(document, { marker: stickyMarker('k'), links: {} })
    for (const text of [report, results, junit, comment]) expect(text).not.toContain(SECRET)
    // 5 MB of tool output: cut visibly in the report, which fits the job summary; the comment fits its limit.
    expect(doc.runs[0].tool_calls[1].cut).toMatchObject({ total_chars: 5 * 1024 * 1024, shown_chars: 100_000, kept_chars: 262_144 })
    expect(report).toContain('the model saw 100,000 of 5,242,880 characters; the record keeps 262,144')
    expect(Buffer.byteLength(report)).toBeLessThan(64 * 1024)
    expect(report).toContain('... (truncated)')
    expect(comment.length).toBeLessThanOrEqual(65_536)
    expect(outsideCodeBlocks(comment)).not.toMatch(/<(img|script)\b(?! src="https:\/\/img\.shields\.io)/)
    expect(junit).not.toMatch(/<img|<script/)
    expect(report).toContain('token=***')

    // Outside code blocks (where GitHub shows text literally), no raw HTML from the text
    // survives: every <img> in the report is one of our badges, and there is no <script>.
    const prose = outsideCodeBlocks(report)
    const tags = prose.match(/<(img|script)\b[^>]*>/g) ?? []
    expect(tags.filter((t) => !t.startsWith('<img src="https://img.shields.io/badge/'))).toEqual([])
    // Every <details> we open is closed by us: the text's </details> is inert.
    expect((prose.match(/<details>/g) ?? []).length).toBe((prose.match(/<\/details>/g) ?? []).length)
    expect(prose).not.toMatch(/@octocat/)
    expect(prose).not.toMatch(/!\[pic\]/)
    // The tool output sits in a fence longer than the backtick runs inside it.
    expect(report).toMatch(/^````\n<img src=x onerror=alert\(1\)>$/m)
    expect(report).toMatch(/^broke out of the fence\n```\ntoken=\*\*\*\n````$/m)
  })
})

/** The report without its fenced code blocks (a fence closes only with a run at least as long). */
function outsideCodeBlocks(markdown: string): string {
  const out: string[] = []
  let fence: string | undefined
  for (const line of markdown.split('\n')) {
    const run = /^(`{3,})/.exec(line)?.[1]
    if (fence === undefined && run) fence = run
    else if (fence !== undefined && run && run.length >= fence.length && line.trim() === run) fence = undefined
    else if (fence === undefined) out.push(line)
  }
  expect(fence).toBeUndefined()
  return out.join('\n')
}
