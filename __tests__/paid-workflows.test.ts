import { describe, expect, test } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse, parseDocument } from 'yaml'
import { fixturePath } from '../__fixtures__/harness.js'
import { buildWorkflow } from '../src/cli/init/workflow.js'
import type { WrittenConfig } from '../src/cli/init/written-config.js'

// The workflows a user copies to run paid model calls on pull requests: the README's Quick start,
// examples/workflows/eval.yml and the one `init` writes. Each needs what a paid job needs: a
// timeout, a per-pull-request concurrency group that cancels a superseded run (but never a run on
// the default branch, which keeps the baseline), runs on pushes to the default branch, and
// `baseline: auto`, without which the delta gate never engages.

interface Step {
  uses?: string
  with?: Record<string, unknown>
}
interface Workflow {
  on: Record<string, { branches?: string[] } | null>
  concurrency?: { group?: string; 'cancel-in-progress'?: unknown }
  jobs: Record<string, { 'timeout-minutes'?: number; steps: Step[] }>
}

const root = fixturePath('..')

/** The README's Quick start: the first yaml block after its heading. */
function quickStart(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('\n## Quick start\n'))
  const block = /```yaml\n([\s\S]*?)```/.exec(section)
  if (!block) throw new Error('README.md: no yaml block under "## Quick start"')
  return block[1]
}

function initWorkflow(): string {
  const config = { json: { command: 'node', args: ['server.js'] }, introduced: [], absolutePaths: [], localUrl: false } as unknown as WrittenConfig
  return buildWorkflow(config, 'evals/eval_cases.yaml').doc.toString()
}

const paid: [string, () => string][] = [
  ['README.md Quick start', quickStart],
  ['examples/workflows/eval.yml', () => readFileSync(join(root, 'examples/workflows/eval.yml'), 'utf8')],
  ["init's mcp-evals.yml", initWorkflow]
]

describe.each(paid)('%s', (_name, text) => {
  const workflow = () => parse(text()) as Workflow
  const ours = () => Object.values(workflow().jobs).flatMap((j) => j.steps.filter((s) => s.uses?.startsWith('mcp-server-evals/mcp-server-evals@')))

  test('parses, with our step in it', () => {
    expect(parseDocument(text()).errors).toEqual([])
    expect(ours()).toHaveLength(1)
  })

  test('runs on pull requests and on pushes to the default branch, with baseline: auto', () => {
    expect(Object.keys(workflow().on)).toEqual(expect.arrayContaining(['pull_request', 'push']))
    expect(workflow().on.push?.branches).toEqual(['main'])
    expect(ours()[0].with?.baseline).toBe('auto')
  })

  test('a concurrency group per pull request that cancels only pull request runs', () => {
    expect(workflow().concurrency).toEqual({
      group: 'mcp-evals-${{ github.event.pull_request.number || github.run_id }}',
      'cancel-in-progress': "${{ github.event_name == 'pull_request' }}"
    })
  })

  test('every job has a timeout', () => {
    for (const [job, { 'timeout-minutes': minutes }] of Object.entries(workflow().jobs)) expect({ job, minutes }).toEqual({ job, minutes: 30 })
  })
})

describe('upload-sarif is the current major everywhere it is shown', () => {
  const texts = [
    ...readdirSync(join(root, 'examples/workflows')).map((f) => join('examples/workflows', f)),
    ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f)),
    'README.md'
  ]
  const uses = (file: string) => readFileSync(join(root, file), 'utf8').match(/codeql-action\/upload-sarif@\S+/g) ?? []
  test.each(texts)('%s', (file) => {
    for (const u of uses(file)) expect(u).toBe('codeql-action/upload-sarif@v4')
  })
  test('shown at least in eval.yml and the Layer 2 page', () => {
    expect([uses('examples/workflows/eval.yml').length, uses('docs/resilience-security.md').length]).toEqual([1, 1])
  })
})
