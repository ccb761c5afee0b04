import { writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'

/** A comment as the GitHub REST API returns it (the fields we use). */
export interface FakeComment {
  id: number
  body: string
  user: { login: string; type: 'Bot' | 'User' }
  html_url: string
}

/**
 * Plays the slice of the GitHub REST API the sticky comment uses, on 127.0.0.1: list issue
 * comments (paged, with Link headers), create, update. `readOnly` answers writes with 403, as a
 * fork's token gets.
 */
export async function startFakeGitHub(options: { readOnly?: boolean; pageSize?: number } = {}) {
  const comments: FakeComment[] = []
  const requests: { method: string; path: string }[] = []
  let nextId = 1000
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    requests.push({ method: req.method ?? '', path: `${url.pathname}${url.search}` })
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
    const list = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname)
    const one = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(url.pathname)
    if (list && req.method === 'GET') {
      // The real API caps per_page at 100; a small page size here exercises pagination.
      const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), options.pageSize ?? 100)
      const page = Number(url.searchParams.get('page') ?? 1)
      const last = Math.max(1, Math.ceil(comments.length / perPage))
      const link: Record<string, string> = page < last ? { link: `<http://127.0.0.1:${port}${url.pathname}?per_page=${perPage}&page=${page + 1}>; rel="next", <http://127.0.0.1:${port}${url.pathname}?per_page=${perPage}&page=${last}>; rel="last"` } : {}
      return json(200, comments.slice((page - 1) * perPage, page * perPage), link)
    }
    if (options.readOnly && (req.method === 'POST' || req.method === 'PATCH')) return json(403, { message: 'Resource not accessible by integration' })
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { body: string }).body : ''
    if (list && req.method === 'POST') {
      const comment: FakeComment = { id: nextId++, body, user: { login: 'github-actions[bot]', type: 'Bot' }, html_url: `https://github.example/pr/${list[3]}#issuecomment-${nextId - 1}` }
      comments.push(comment)
      return json(201, comment)
    }
    if (one && req.method === 'PATCH') {
      const comment = comments.find((c) => c.id === Number(one[3]))
      if (!comment) return json(404, { message: 'Not Found' })
      comment.body = body
      return json(200, comment)
    }
    json(404, { message: 'Not Found' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    comments,
    requests,
    /** A comment written by a person, or another bot. */
    add(body: string, user: FakeComment['user']) {
      comments.push({ id: nextId++, body, user, html_url: `https://github.example/c/${nextId - 1}` })
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/**
 * The environment a runner gives an action step on a pull_request event (PR #7 of octo/server,
 * run 42), with the REST API at `apiUrl`; writes the output, summary and event files into `work`.
 */
export function pullRequestEnv(work: string, apiUrl: string): Record<string, string> {
  writeFileSync(join(work, 'out'), '')
  writeFileSync(join(work, 'summary'), '')
  writeFileSync(join(work, 'event.json'), JSON.stringify({ pull_request: { number: 7 }, repository: { name: 'server', owner: { login: 'octo' } } }))
  return {
    GITHUB_OUTPUT: join(work, 'out'),
    GITHUB_STEP_SUMMARY: join(work, 'summary'),
    RUNNER_TEMP: work,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: join(work, 'event.json'),
    GITHUB_REPOSITORY: 'octo/server',
    GITHUB_API_URL: apiUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '42',
    GITHUB_WORKFLOW: 'MCP evals',
    GITHUB_JOB: 'evals'
  }
}
