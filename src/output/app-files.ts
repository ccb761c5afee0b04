import { statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { AppRender, ResultsDocument } from '../results/types.js'

/**
 * Where the host writes a job's screenshots (`apps/…` under it), and where the report, the
 * artifact and the visual diff look for them: the output directory, else the results document's.
 */
export function appsRootOf(outputDir: string, resultsPath: string): string {
  return outputDir || dirname(resultsPath)
}

/**
 * The MCP Apps files of a document that are on disk, for the artifact: each render's screenshot
 * (`apps/<id>.png`) and, where a baseline was compared, its copy of the baseline's and the diff
 * image (`apps/baseline/…`, `apps/diff/…`), all relative to `outputDir` where the host wrote them.
 * Only the files the document names (no stale screenshot of an earlier run), each once.
 */
export function appFiles(doc: ResultsDocument, outputDir: string): string[] {
  if (!doc.apps) return []
  const renders: AppRender[] = [
    ...(doc.tool_tests?.tests ?? []).flatMap((t) => t.attempts.flatMap((a) => a.steps.flatMap((s) => (s.app ? [s.app] : [])))),
    ...doc.runs.flatMap((r) => r.app_renders ?? [])
  ]
  const named = renders.flatMap((r) => [r.screenshot, r.visual_diff?.baseline ?? null, r.visual_diff?.diff ?? null]).filter((p): p is string => p !== null && /^apps\/[A-Za-z0-9/._-]+\.png$/.test(p) && !p.includes('..'))
  return [...new Set(named)].map((p) => join(outputDir, p)).filter(isFile)
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}
