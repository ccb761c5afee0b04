import { jest } from '@jest/globals'
import type * as real from '@actions/core'

/** A stand-in for @actions/core whose inputs a test sets and whose calls it reads. */
export const inputs: Record<string, string> = {}
export const getInput = jest.fn<typeof real.getInput>((name) => inputs[name] ?? '')
export const setSecret = jest.fn<typeof real.setSecret>()
export const setOutput = jest.fn<typeof real.setOutput>()
export const setFailed = jest.fn<typeof real.setFailed>()
export const info = jest.fn<typeof real.info>()
export const warning = jest.fn<typeof real.warning>()
export const error = jest.fn<typeof real.error>()
export const notice = jest.fn<typeof real.notice>()
export const summaryWrite = jest.fn<() => Promise<unknown>>(async () => undefined)
export const summaryText: string[] = []
export const summary = {
  addRaw(text: string) {
    summaryText.push(text)
    return summary
  },
  write: summaryWrite
}
