import { describe, expect, test } from '@jest/globals'
import { errorOf } from '../__fixtures__/config-error.js'
import { resolveOptions, type RawOptions } from '../src/config/options.js'
import { parseServerConfig } from '../src/config/server-config.js'
import { parseSuite } from '../src/config/suite.js'
import { validateConfig, type ConfigDisk } from '../src/config/validate.js'

// The checks between options, server_config and the suite, without the disk: a fake one answers
// whether the run directories' base is writable.

const SUITE = `system_prompts:
  default: You help.
cases:
  - id: one
    prompt: Hello
    rubric: Says hello
`

const options = (over: Record<string, string> = {}) => {
  const names: Record<string, string> = { serverConfig: 'server_config', evalCases: 'eval_cases', apiKey: 'openrouter_api_key', filter: 'filter', maxSteps: 'max_steps', parallel: 'parallel', concurrency: 'concurrency', baseUrl: 'base_url', judgeModel: 'judge_model', models: 'models', timeoutSeconds: 'timeout_seconds', serverReuse: 'server_reuse' }
  const values: Record<string, string> = { serverConfig: '{"command":"x"}', evalCases: 'evals.yaml', apiKey: 'k', ...over }
  return resolveOptions(Object.fromEntries(Object.entries(names).map(([k, name]) => [k, { value: values[k] ?? '', name }])) as unknown as RawOptions)
}

/** A disk whose run directories' base is writable or not, recording what was asked. */
function fakeDisk(problem: string | null): ConfigDisk & { asked: string[] } {
  const asked: string[] = []
  return {
    asked,
    runDirsBase: '/runner/tmp/mcp-server-evals-run-dirs',
    writable(dir) {
      asked.push(dir)
      return problem
    }
  }
}

describe('validateConfig', () => {
  const suite = parseSuite(SUITE, 'evals.yaml')

  test('${RUN_DIR} with a base that cannot be written: one error naming server_config, the base and why', () => {
    const server = parseServerConfig('{"command":"srv","args":["--data","${RUN_DIR}"]}', { env: {} })
    const disk = fakeDisk('EACCES: permission denied')
    const error = errorOf(() => validateConfig({ options: options(), server, suite }, disk))
    expect(disk.asked).toEqual(['/runner/tmp/mcp-server-evals-run-dirs'])
    expect(error.message).toBe(
      "input 'server_config': ${RUN_DIR} needs a writable directory to make the run directories in, and /runner/tmp/mcp-server-evals-run-dirs is not one (EACCES: permission denied); point RUNNER_TEMP (or TMPDIR) at a writable directory"
    )
  })

  test('no ${RUN_DIR} anywhere: the disk is not asked', () => {
    const server = parseServerConfig('{"command":"srv"}', { env: {} })
    const disk = fakeDisk('never asked')
    validateConfig({ options: options(), server, suite }, disk)
    expect(disk.asked).toEqual([])
  })

  test('server_reuse worker for an HTTP server is an error naming the input', () => {
    const server = parseServerConfig('{"url":"http://127.0.0.1:9/mcp"}', { env: {} })
    const error = errorOf(() => validateConfig({ options: options({ serverReuse: 'worker' }), server, suite }, fakeDisk(null)))
    expect(error.message).toMatch(/^input 'server_reuse': is 'worker', but the server_config input names an HTTP server \(url\)/)
  })

  test('a filter that selects nothing lists the ids', () => {
    const server = parseServerConfig('{"command":"srv"}', { env: {} })
    const error = errorOf(() => validateConfig({ options: options({ filter: 'zzz' }), server, suite }, fakeDisk(null)))
    expect(error.message).toBe("input 'filter': 'zzz' matches no case id (case-sensitive substring); the ids are: one")
  })
})
