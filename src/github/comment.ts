import type * as github from '@actions/github'

type Octokit = ReturnType<typeof github.getOctokit>

export interface StickyTarget {
  owner: string
  repo: string
  issue_number: number
}

/** The hidden marker of one sticky comment; `key` keeps two suites in one PR apart. */
export function stickyMarker(key: string): string {
  const safe = key.replace(/[^A-Za-z0-9._/ -]/g, '-').replace(/-{2,}/g, '-').trim() || 'default'
  return `<!-- mcp-server-evals:sticky:${safe} -->`
}

/** A comment we may update: it carries our marker and was written by a bot, never by a person. */
function ours(comment: { body?: string | null; user?: { type?: string; login?: string } | null }, marker: string): boolean {
  const author = comment.user
  const bot = author?.type === 'Bot' || author?.login === 'github-actions[bot]'
  return bot && (comment.body ?? '').includes(marker)
}

/**
 * Create or update the one sticky comment for `marker`: every page of comments is read (the
 * first page alone holds only 30), and only a bot-authored comment with the marker is updated,
 * so a human who quotes the marker is never overwritten.
 */
export async function upsertStickyComment(octokit: Octokit, target: StickyTarget, marker: string, body: string): Promise<{ action: 'created' | 'updated'; url: string }> {
  const comments = await octokit.paginate(octokit.rest.issues.listComments, { ...target, per_page: 100 })
  const existing = comments.find((c) => ours(c, marker))
  if (existing) {
    const { data } = await octokit.rest.issues.updateComment({ owner: target.owner, repo: target.repo, comment_id: existing.id, body })
    return { action: 'updated', url: data.html_url }
  }
  const { data } = await octokit.rest.issues.createComment({ ...target, body })
  return { action: 'created', url: data.html_url }
}
