// Log lines through the neutraliser; setOutput and the summary as @actions/core has them.
import * as core from './log.js'
import { DefaultArtifactClient } from '@actions/artifact'
import { copyFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Where the artifact service is, when this runs on a runner that has one. */
function serviceAvailable(): boolean {
  return Boolean(process.env.ACTIONS_RUNTIME_TOKEN && process.env.ACTIONS_RESULTS_URL)
}

/**
 * Upload the results as one artifact. Where the artifact service is unavailable (outside a
 * runner, GHES) or the upload fails, warn and go on: an upload never fails the evaluation.
 */
export async function uploadResultsArtifact(name: string, files: string[], rootDirectory: string, retentionDays: number | undefined): Promise<number | undefined> {
  if (!serviceAvailable()) {
    core.warning('The artifact service is not available here (no ACTIONS_RUNTIME_TOKEN / ACTIONS_RESULTS_URL); the results were not uploaded as an artifact.')
    return undefined
  }
  try {
    const { id } = await new DefaultArtifactClient().uploadArtifact(name, files, rootDirectory, retentionDays ? { retentionDays } : {})
    core.info(`Uploaded the artifact ${name} (${files.length} files).`)
    return id
  } catch (error) {
    core.warning(`Could not upload the artifact ${name}: ${(error as Error).message}`)
    return undefined
  }
}

/** The non-zipped HTML artifact's name: the file's own name, so made unique per artifact (and per shard). */
export const htmlArtifactName = (artifactName: string): string => `${artifactName}-report.html`

/**
 * Upload eval-report.html on its own, not zipped, so that GitHub serves it to the browser and
 * `…/artifacts/<id>#run-17` opens that run. A non-zipped artifact is named after its file, so the
 * page is copied first to a name of its own (`<artifact_name>-report.html`, in RUNNER_TEMP). An
 * unavailable service or a failed upload is a warning, as for the results artifact; returns the
 * artifact's id, or undefined.
 */
export async function uploadHtmlArtifact(artifactName: string, htmlPath: string, retentionDays: number | undefined): Promise<number | undefined> {
  const name = htmlArtifactName(artifactName)
  // Said once already by the results artifact's upload; silent here.
  if (!serviceAvailable()) return undefined
  try {
    const dir = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), 'mcp-server-evals-html-'))
    const file = join(dir, name)
    copyFileSync(htmlPath, file)
    const { id } = await new DefaultArtifactClient().uploadArtifact(name, [file], dir, { skipArchive: true, ...(retentionDays ? { retentionDays } : {}) })
    core.info(`Uploaded the HTML report as the artifact ${name} (opens in the browser).`)
    return id
  } catch (error) {
    core.warning(`Could not upload the HTML report as the artifact ${name}: ${(error as Error).message}`)
    return undefined
  }
}
