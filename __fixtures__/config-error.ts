import { ConfigError } from '../src/config/errors.js'

/** The ConfigError `fn` throws; any other outcome fails the test. */
export function errorOf(fn: () => unknown): ConfigError {
  try {
    fn()
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('expected a ConfigError')
}
