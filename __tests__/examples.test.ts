import { describe, expect, test } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse, parseDocument } from 'yaml'
import { fixturePath } from '../__fixtures__/harness.js'
import { parseServerConfig } from '../src/config/server-config.js'

// The workflows in examples/workflows are copied as they are: they must parse, use only inputs
// the action declares, and never paste a secret into the server_config JSON.
const dir = fixturePath('../examples/workflows')
const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f))
const inputs = Object.keys((parse(readFileSync(fixturePath('../action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs)

interface Step {
  uses?: string
  env?: Record<string, string>
  with?: Record<string, unknown>
}
interface Workflow {
  env?: Record<string, string>
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>
}

/** Every step of ours, with the environment it runs in (workflow, job and step env). */
function ourSteps(workflow: Workflow): { job: string; step: Step; env: Record<string, string> }[] {
  return Object.entries(workflow.jobs).flatMap(([job, { env, steps }]) =>
    steps.filter((s) => s.uses?.startsWith('mcp-server-evals/mcp-server-evals@')).map((step) => ({ job, step, env: { ...workflow.env, ...env, ...step.env } }))
  )
}

describe.each(files)('examples/workflows/%s', (file) => {
  const text = readFileSync(join(dir, file), 'utf8')

  test('parses', () => {
    expect(parseDocument(text).errors).toEqual([])
    expect(ourSteps(parse(text) as Workflow).length).toBeGreaterThan(0)
  })

  test("every `with:` key of our step is an input of action.yml, and server_config holds no secret", () => {
    for (const { job, step, env } of ourSteps(parse(text) as Workflow)) {
      for (const key of Object.keys(step.with ?? {})) expect({ job, key, declared: inputs.includes(key) }).toEqual({ job, key, declared: true })
      const config = String(step.with?.server_config ?? '')
      expect(config).not.toContain('${{ secrets.')
      // Every ${NAME} it uses is set in the step's environment (the value does not matter here).
      const stand = Object.fromEntries(Object.keys(env).map((k) => [k, 'x']))
      if (config.trim().startsWith('{')) expect(() => parseServerConfig(config, { env: stand })).not.toThrow()
    }
  })
})
