import { describe, expect, jest, test } from '@jest/globals'
import module from 'node:module'
import { join } from 'node:path'
import { COMPILE_CACHE_DIR, enableCompileCache } from '../src/github/compile-cache.js'

describe("the action's compile cache", () => {
  test('is kept in a folder under RUNNER_TEMP', () => {
    const enable = jest.fn((directory: string) => ({ status: 1, directory }))
    expect(enableCompileCache({ RUNNER_TEMP: '/runner/temp' }, enable)).toBe(join('/runner/temp', COMPILE_CACHE_DIR))
    expect(enable).toHaveBeenCalledWith(join('/runner/temp', COMPILE_CACHE_DIR))
  })

  test('is not enabled outside a runner (no RUNNER_TEMP)', () => {
    const enable = jest.fn((directory: string) => ({ status: 1, directory }))
    expect(enableCompileCache({}, enable)).toBeUndefined()
    expect(enable).not.toHaveBeenCalled()
  })

  // The runtime's own: without an argument the function takes module.enableCompileCache, which Node 22.1+ has.
  const runtimeHasNone = typeof (module as unknown as { enableCompileCache?: unknown }).enableCompileCache !== 'function'
  ;(runtimeHasNone ? test : test.skip)('is nothing on a Node.js without module.enableCompileCache (Node 20)', () => {
    expect(enableCompileCache({ RUNNER_TEMP: '/runner/temp' }, undefined)).toBeUndefined()
  })

  test('that cannot be made is no error', () => {
    const enable = jest.fn((): { status: number } => {
      throw new Error('EACCES')
    })
    expect(enableCompileCache({ RUNNER_TEMP: '/runner/temp' }, enable)).toBeUndefined()
  })
})
