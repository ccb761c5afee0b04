import { describe, expect, test } from '@jest/globals'
import MarkdownIt from 'markdown-it'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { fixturePath } from '../__fixtures__/harness.js'

/** The repository's root, and a file in it. */
const ROOT = path.resolve(fixturePath('..'))
const repoPath = (relative: string) => path.join(ROOT, relative)
const read = (relative: string) => readFileSync(repoPath(relative), 'utf8')

/** README.md, CONTRIBUTING.md and every page under docs/, as paths relative to the root. */
const MARKDOWN_FILES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(repoPath('docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file))
    .sort()
]

/** CommonMark + GFM tables, as GitHub reads a page: fenced code and code spans hold no links or headings. */
const markdown = new MarkdownIt({ html: true })

type Token = ReturnType<MarkdownIt['parse']>[number]

/** The text GitHub slugs a heading from: its inline content with code spans' backticks gone, links by their text, HTML tags dropped. */
function inlineText(inline: Token): string {
  return (inline.children ?? [])
    .map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : child.type === 'image' ? inlineText(child) : ''))
    .join('')
}

/** GitHub's (github-slugger's) rule: lower-case; drop every character but letters, marks, numbers, connector punctuation (`_`), `-` and spaces; each space becomes `-`. */
function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors of a page's headings, in order; a repeated slug gets `-1`, `-2`, … as GitHub numbers them. */
function headingAnchors(text: string): string[] {
  const tokens = markdown.parse(text, {})
  const occurrences = new Map<string, number>()
  const anchors: string[] = []
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return
    const base = githubSlug(inlineText(tokens[i + 1]))
    let anchor = base
    while (occurrences.has(anchor)) {
      const n = occurrences.get(base)! + 1
      occurrences.set(base, n)
      anchor = `${base}-${n}`
    }
    occurrences.set(anchor, 0)
    anchors.push(anchor)
  })
  return anchors
}

/** Every link and image target of a page, outside code. */
function linkTargets(text: string): string[] {
  const targets: string[] = []
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'link_open') targets.push(token.attrGet('href') ?? '')
      if (token.type === 'image') targets.push(token.attrGet('src') ?? '')
      if (token.children) visit(token.children)
    }
  }
  visit(markdown.parse(text, {}))
  return targets
}

const EXTERNAL = /^(https?|mailto):/i
const decode = (value: string) => {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

const anchorCache = new Map<string, Set<string>>()
const anchorsOfFile = (absolute: string) => {
  if (!anchorCache.has(absolute)) anchorCache.set(absolute, new Set(headingAnchors(readFileSync(absolute, 'utf8'))))
  return anchorCache.get(absolute)!
}

/**
 * The relative links of `file` (a path from the root) that do not resolve: the target must exist
 * inside the repository, and an `#anchor` must be a heading of the target Markdown page (a line
 * anchor `#L12` of another file is allowed). `text` stands in for the file's content.
 */
function brokenLinks(file: string, text = read(file)): string[] {
  const broken: string[] = []
  const own = new Set(headingAnchors(text))
  for (const href of linkTargets(text)) {
    if (EXTERNAL.test(href)) continue
    const hash = href.indexOf('#')
    const target = decode(hash === -1 ? href : href.slice(0, hash))
    const anchor = hash === -1 ? null : decode(href.slice(hash + 1))
    if (target === '') {
      if (anchor === null || !own.has(anchor)) broken.push(`${href}: no such heading on this page`)
      continue
    }
    const absolute = path.resolve(ROOT, path.dirname(file), target)
    if (path.relative(ROOT, absolute).startsWith('..')) {
      broken.push(`${href}: outside the repository`)
      continue
    }
    if (!existsSync(absolute)) {
      broken.push(`${href}: no such file or directory`)
      continue
    }
    if (anchor === null) continue
    if (!absolute.endsWith('.md')) {
      if (!/^L\d+(-L\d+)?$/.test(anchor) || statSync(absolute).isDirectory()) broken.push(`${href}: an anchor on a file that has no headings`)
    } else if (!anchorsOfFile(absolute).has(anchor)) {
      broken.push(`${href}: no such heading in ${target}`)
    }
  }
  return broken
}

describe("GitHub's heading anchors", () => {
  test.each([
    ['## `server_config`', 'server_config'],
    ['### `required_tools` semantics', 'required_tools-semantics'],
    ['## Latency, tokens and cost (Layer 3)', 'latency-tokens-and-cost-layer-3'],
    ['## `eval_cases.yaml`', 'eval_casesyaml'],
    ['## `init`: a starting suite from the server itself', 'init-a-starting-suite-from-the-server-itself'],
    ['## `${RUN_DIR}`: isolated state per run', 'run_dir-isolated-state-per-run'],
    ['## Sharing server processes: `server_reuse`', 'sharing-server-processes-server_reuse'],
    ['### Server input: elicitation, sampling, roots', 'server-input-elicitation-sampling-roots'],
    ['# The suite: `server_config` and `eval_cases.yaml`', 'the-suite-server_config-and-eval_casesyaml'],
    ['## Layer 0 — conformance & tool tests ✓', 'layer-0--conformance--tool-tests-'],
    ['## See [the report](report.md)', 'see-the-report']
  ])('%s → #%s', (heading, anchor) => {
    expect(headingAnchors(heading)).toEqual([anchor])
  })

  test('the examples are real headings of the docs', () => {
    expect([...anchorsOfFile(repoPath('docs/suite-format.md'))]).toEqual(expect.arrayContaining(['server_config', 'eval_casesyaml', 'required_tools-semantics']))
    expect([...anchorsOfFile(repoPath('docs/telemetry.md'))]).toContain('latency-tokens-and-cost-layer-3')
    expect([...anchorsOfFile(repoPath('docs/what-the-model-sees.md'))]).toContain('run_dir-isolated-state-per-run')
  })

  test('a repeated heading is numbered -1, -2, … (also past a heading that already ends in -1)', () => {
    expect(headingAnchors('## Notes\n\n## Notes\n\n## Notes\n')).toEqual(['notes', 'notes-1', 'notes-2'])
    expect(headingAnchors('## A\n\n## A-1\n\n## A\n')).toEqual(['a', 'a-1', 'a-2'])
  })

  test('a "# line" inside fenced code is no heading', () => {
    expect(headingAnchors('# Title\n\n```yaml\n# a comment\n```\n')).toEqual(['title'])
  })
})

describe('the link checker', () => {
  test('finds a missing file, a missing heading on the page and one on another page; skips code and external links', () => {
    const page = [
      '# Page',
      '[ok](suite-format.md#server_config) [ok](../README.md#outputs) [ok](#page) [ok](../examples/eval_cases.yaml) [ok](../src/)',
      '[gone](no-such-page.md) [gone](#no-such-heading) [gone](suite-format.md#no-such-heading) [gone](../../outside.md)',
      '[external](https://example.com/x.md) [mail](mailto:someone@example.com) `[code](span.md)`',
      '```',
      '[in a fence](fenced.md)',
      '```'
    ].join('\n')
    expect(brokenLinks('docs/example.md', page)).toEqual([
      'no-such-page.md: no such file or directory',
      '#no-such-heading: no such heading on this page',
      'suite-format.md#no-such-heading: no such heading in suite-format.md',
      '../../outside.md: outside the repository'
    ])
  })
})

describe('every relative link in README.md, CONTRIBUTING.md and docs/ resolves', () => {
  test('there are docs pages to check', () => {
    expect(MARKDOWN_FILES).toEqual(expect.arrayContaining(['docs/conformance.md', 'docs/suite-format.md', 'docs/README.md']))
  })

  test.each(MARKDOWN_FILES)('%s', (file) => {
    expect(brokenLinks(file)).toEqual([])
  })
})

describe("the source's links into docs/ resolve (the CLI's --help prints them)", () => {
  const sourceFiles = (readdirSync(repoPath('src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => `src/${f}`)
  const docsLinks = sourceFiles.flatMap((file) => [...read(file).matchAll(/docsLink\('([^']+)'\)/g)].map((m) => m[1]))

  test('the --help texts name docs pages', () => {
    expect(docsLinks).toEqual(expect.arrayContaining(['cli.md', 'sharding.md', 'cli.md#init-a-starting-suite-from-the-server-itself']))
  })

  test.each(docsLinks)('docs/%s', (page) => {
    // Checked as a link from the README would be: docs/PAGE, its anchor a heading of the page.
    expect(brokenLinks('README.md', `[page](docs/${page})`)).toEqual([])
  })
})

describe('the README introduces; docs/ holds the reference', () => {
  test('the README is under 40 KiB', () => {
    expect(statSync(repoPath('README.md')).size).toBeLessThan(40 * 1024)
  })

  test("every input and output of action.yml is named in the README's backticks", () => {
    const action = parse(read('action.yml')) as { inputs: Record<string, unknown>; outputs: Record<string, unknown> }
    const names = [...Object.keys(action.inputs), ...Object.keys(action.outputs)]
    expect(names.length).toBeGreaterThan(40)
    const readme = read('README.md')
    expect(names.filter((name) => !readme.includes(`\`${name}\``))).toEqual([])
  })

  test('the README links every docs page', () => {
    const linked = new Set(linkTargets(read('README.md')).map((href) => href.split('#')[0]))
    expect(MARKDOWN_FILES.filter((file) => file.startsWith('docs') && !linked.has(file))).toEqual([])
  })
})

describe('docs/conformance.md lists every conformance check', () => {
  /** Every `id: '…'` of a CheckSpec under src/conformance/. */
  const sourceIds = () => {
    const dir = repoPath('src/conformance')
    const ids = new Set<string>()
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
      for (const match of readFileSync(path.join(dir, file), 'utf8').matchAll(/\bid: '([a-z0-9]+(?:-[a-z0-9]+)*)'/g)) ids.add(match[1])
    }
    return ids
  }
  const page = read('docs/conformance.md')
  /** The ids in the first column of the page's table of checks. */
  const tableIds = [...page.matchAll(/^\| `([a-z0-9-]+)` \| (?:error|warning)/gm)].map((m) => m[1])

  test('every check id in the source is on the page, in backticks', () => {
    const ids = sourceIds()
    expect(ids.size).toBeGreaterThan(40)
    expect([...ids].filter((id) => !page.includes(`\`${id}\``))).toEqual([])
  })

  test('every id in the table is one the source declares (the search above misses none)', () => {
    const ids = sourceIds()
    expect(tableIds.length).toBeGreaterThan(40)
    expect(tableIds.filter((id) => !ids.has(id))).toEqual([])
    expect(new Set(tableIds).size).toBe(tableIds.length)
  })

  test("the README's count of checks is the table's", () => {
    const stated = /(\d+) checks, each with a stable id/.exec(read('README.md'))
    expect(stated).not.toBeNull()
    expect(Number(stated![1])).toBe(tableIds.length)
  })
})
