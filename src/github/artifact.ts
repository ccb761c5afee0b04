// Log lines through the neutraliser; setOutput and the summary as @actions/core has them.
import * as core from './log.js'
import { DefaultArtifactClient } from '@actions/artifact'

/**
 * Upload the results as one artifact. Where the artifact service is unavailable (outside a
 * runner, GHES) or the upload fails, warn and go on: an upload never fails the evaluation.
 */
export async function uploadResultsArtifact(name: string, files: string[], rootDirectory: string, retentionDays: number | undefined): Promise<number | undefined> {
  if (!process.env.ACTIONS_RUNTIME_TOKEN || !process.env.ACTIONS_RESULTS_URL) {
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
