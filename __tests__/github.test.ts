import { afterEach, describe, expect, test } from '@jest/globals'
import * as github from '@actions/github'
import { readFileSync, writeFileSync, existsSync } from 'node:fs'
import { startFakeGitHub } from '../__fixtures__/fake-github.js'
import { fixturePath } from '../__fixtures__/harness.js'
import { golden } from '../__fixtures__/report-shapes.js'
import { stickyMarker, upsertStickyComment } from '../src/github/comment.js'
import { renderBadge } from '../src/report/badge.js'
import { groupRuns } from '../src/aggregate/groups.js'
import { COMMENT_MAX_CHARS, renderComment } from '../src/report/comment.js'
import { renderJUnit } from '../src/report/junit.js'

const target = { owner: 'octo', repo: 'server', issue_number: 7 }
let closers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(closers.map((c) => c()))
  closers = []
})

async function fake(options: Parameters<typeof startFakeGitHub>[0] = {}) {
  const api = await startFakeGitHub(options)
  closers.push(api.close)
  // The real client, pointed at the fake API.
  return { api, octokit: github.getOctokit('test-token', { baseUrl: api.url }) }
}

describe('sticky PR comment through the real @actions/github client', () => {
  const marker = stickyMarker('MCP evals/evals')

  test('the first run creates, the second updates the same comment, reading every page', async () => {
    const { api, octokit } = await fake({ pageSize: 2 })
    for (let i = 0; i < 5; i++) api.add(`review comment ${i}`, { login: 'reviewer', type: 'User' })
    const first = await upsertStickyComment(octokit, target, marker, `first\n${marker}`)
    expect(first.action).toBe('created')
    const second = await upsertStickyComment(octokit, target, marker, `second\n${marker}`)
    expect(second.action).toBe('updated')
    const ours = api.comments.filter((c) => c.body.includes(marker))
    expect(ours).toHaveLength(1)
    expect(ours[0].body).toBe(`second\n${marker}`)
    // 5 and then 6 comments at 2 a page: each lookup read all 3 pages (ours is on the last).
    expect(api.requests.filter((r) => r.method === 'GET' && r.path.includes('page=3'))).toHaveLength(2)
  })

  test('a human comment that quotes the marker is left alone', async () => {
    const { api, octokit } = await fake()
    api.add(`look at this: ${marker}`, { login: 'someone', type: 'User' })
    const result = await upsertStickyComment(octokit, target, marker, `ours\n${marker}`)
    expect(result.action).toBe('created')
    expect(api.comments[0].body).toBe(`look at this: ${marker}`)
    expect(api.comments).toHaveLength(2)
  })

  test('two keys keep two comments', async () => {
    const { api, octokit } = await fake()
    await upsertStickyComment(octokit, target, stickyMarker('suite-a'), `a\n${stickyMarker('suite-a')}`)
    await upsertStickyComment(octokit, target, stickyMarker('suite-b'), `b\n${stickyMarker('suite-b')}`)
    expect(api.comments).toHaveLength(2)
  })

  test('a read-only token gets a 403 that the caller can turn into a warning', async () => {
    const { octokit } = await fake({ readOnly: true })
    await expect(upsertStickyComment(octokit, target, marker, 'x')).rejects.toMatchObject({ status: 403 })
  })

  test('markers cannot be broken by the key', () => {
    expect(stickyMarker('a --> <script>')).toBe('<!-- mcp-server-evals:sticky:a - -script- -->')
  })
})

describe('renderers (golden files; UPDATE_GOLDEN=1 regenerates)', () => {
  const check = (name: string, rendered: string) => {
    const path = fixturePath(`golden/${name}`)
    // A missing golden file is written locally, and a failure in CI (where nobody would review it).
    if (process.env.UPDATE_GOLDEN === '1' || (!existsSync(path) && !process.env.CI)) writeFileSync(path, rendered)
    expect(rendered).toBe(readFileSync(path, 'utf8'))
  }

  test('the comment', () => {
    check('comment.md', renderComment(golden(), { marker: stickyMarker('MCP evals/evals'), links: { summary: 'https://github.com/octo/server/actions/runs/1', artifact: 'https://github.com/octo/server/actions/runs/1/artifacts/9' } }))
  })

  test('the JUnit XML', () => {
    const xml = renderJUnit(golden())
    check('junit.xml', xml)
    expect(xml).toContain('<testsuites name="MCP Server Evals" tests="32" failures="2" errors="1" skipped="6"')
    expect(xml).toMatch(/<testcase classname="openai\/gpt-4o-mini · default" name="convert" time="1.5">\n\s+<failure message="judge 57% &lt; threshold 90%: scored 6 for the answer; convert_currency: called but args did not match/)
    expect(xml).toContain('<testcase classname="conformance" name="list-cache-fields" time="0">')
    expect(xml).toContain('<error message="server error: tool call')
  })

  test('the badge', () => {
    expect(renderBadge(golden())).toEqual({ schemaVersion: 1, label: 'MCP evals', message: '50% (2/4) · conformance failing', color: 'orange' })
  })
})

describe('size budgets', () => {
  test('a comment over budget drops whole sections, keeps the verdict and the marker last', () => {
    const doc = golden()
    const many = Array.from({ length: 400 }, (_, i) => ({ ...doc.runs[1], case_id: `case-${i}`, index: i + 1 }))
    const big = { ...doc, runs: many, groups: groupRuns(many, { hard: 1, soft: 0.8 }) }
    const marker = stickyMarker('k')
    const body = renderComment(big, { marker, links: {}, maxChars: 20_000 })
    expect(body.length).toBeLessThanOrEqual(20_000)
    expect(body.startsWith('### MCP Server Evals — ✗ failed')).toBe(true)
    expect(body.endsWith(marker)).toBe(true)
    expect(body).toContain("_Left out to fit GitHub's comment limit: ")
    expect(renderComment(big, { marker, links: {} }).length).toBeLessThanOrEqual(COMMENT_MAX_CHARS)
  })
})
