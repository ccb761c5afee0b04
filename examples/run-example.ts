// The main job on the bundled example, offline: `npm run example`.
// Starts the demo model (a scripted OpenAI-compatible server on 127.0.0.1), then runs the built
// action (dist/index.js) exactly as a workflow would, with INPUT_* variables.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startScriptedLlm } from '../__fixtures__/scripted-llm.js'
import { demoBrain } from './demo-model/brain.js'

const llm = await startScriptedLlm(demoBrain)
const temp = mkdtempSync(join(tmpdir(), 'mcp-evals-example-'))
writeFileSync(join(temp, 'output'), '')
writeFileSync(join(temp, 'summary'), '')
const child = spawn(process.execPath, ['dist/index.js'], {
  stdio: 'inherit',
  env: {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_OUTPUT: join(temp, 'output'),
    GITHUB_STEP_SUMMARY: join(temp, 'summary'),
    INPUT_SERVER_CONFIG: JSON.stringify({ command: 'node', args: ['examples/server/server.mjs'] }),
    INPUT_EVAL_CASES: 'examples/eval_cases.yaml',
    INPUT_OPENROUTER_API_KEY: 'demo-key-not-used',
    INPUT_BASE_URL: llm.url,
    INPUT_FILTER: process.argv[2] ?? '',
    INPUT_MAX_STEPS: '30',
    INPUT_PARALLEL: 'true',
    INPUT_CONCURRENCY: '4',
    INPUT_TIMEOUT_SECONDS: '60',
    INPUT_JOB_SUMMARY: 'true',
    // Nothing to upload to or comment on outside a runner.
    INPUT_UPLOAD_ARTIFACT: 'false',
    INPUT_COMMENT: 'false',
    INPUT_CACHE: 'off'
  }
})
const [status] = (await once(child, 'exit')) as [number | null]
await llm.close()
process.stdout.write(`\nOutputs:\n${readFileSync(join(temp, 'output'), 'utf8').replace(/ghadelimiter_[\w-]+\n?/g, '')}`)
process.stdout.write('Files: eval-results.json, eval-report.md, eval-report.html, eval-junit.xml, eval-results.sarif, eval-badge.json, eval-runs.jsonl, eval-transcripts/\n')
process.exitCode = status ?? 1
