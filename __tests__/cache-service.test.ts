import { afterEach, describe, expect, jest, test } from '@jest/globals'

// @actions/cache is loaded only where its service can be there (ACTIONS_CACHE_URL or
// ACTIONS_RESULTS_URL): elsewhere the warnings are the same, and the package is never imported.
let loaded = 0
const restoreCache = jest.fn(async (): Promise<string | undefined> => 'mcp-evals-llm-key')
jest.unstable_mockModule('@actions/cache', () => {
  loaded++
  return { isFeatureAvailable: () => true, restoreCache, saveCache: jest.fn(async () => 1) }
})
const warnings: string[] = []
const infos: string[] = []
jest.unstable_mockModule('../src/github/log.js', () => ({
  info: (m: string) => infos.push(m),
  warning: (m: string) => warnings.push(m),
  error: jest.fn(),
  notice: jest.fn(),
  setFailed: jest.fn(),
  setSecret: jest.fn()
}))
const { restoreResponses, restoreJournal } = await import('../src/github/cache.js')

const SERVICE = ['ACTIONS_CACHE_URL', 'ACTIONS_RESULTS_URL'] as const
afterEach(() => {
  for (const name of SERVICE) delete process.env[name]
  warnings.length = 0
  infos.length = 0
})

describe('the Actions cache service', () => {
  test('absent: the same warnings, and @actions/cache is not loaded', async () => {
    for (const name of SERVICE) delete process.env[name]
    await restoreResponses('/tmp/answers', 'hash')
    await restoreJournal('/tmp/journal', 'hash', 'key')
    expect(warnings).toEqual([
      'The Actions cache is not available here: no recorded LLM answers are restored.',
      'The Actions cache is not available here: no run journal of an earlier attempt is restored (everything runs).'
    ])
    expect(loaded).toBe(0)
    expect(restoreCache).not.toHaveBeenCalled()
  })

  test.each(SERVICE)('there (%s): @actions/cache is loaded and used', async (name) => {
    process.env[name] = 'https://cache.example/'
    await restoreResponses('/tmp/answers', 'hash')
    expect(loaded).toBe(1)
    expect(restoreCache).toHaveBeenCalled()
    expect(warnings).toEqual([])
    expect(infos).toEqual(['Restored recorded LLM answers (mcp-evals-llm-key).'])
  })
})
