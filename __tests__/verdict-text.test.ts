import { describe, expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { fixturePath } from '../__fixtures__/harness.js'
import { VERDICT_RULES, VERDICT_RULES_LINE } from '../src/report/verdict-rules.js'

const read = (relative: string) => readFileSync(fixturePath(`../${relative}`), 'utf8')

describe('what decides `passed` and the exit code is one text, everywhere', () => {
  test('the README carries it word for word', () => {
    expect(read('README.md')).toContain(VERDICT_RULES)
  })

  test("action.yml's passed output carries it on one line", () => {
    const action = parse(read('action.yml')) as { outputs: Record<string, { description: string }> }
    expect(action.outputs.passed.description).toBe(VERDICT_RULES_LINE)
  })

  test('nothing says a failed run fails the step any more', () => {
    for (const file of ['README.md', 'action.yml']) expect(read(file)).not.toMatch(/a failed run fails the step(?! only)/)
  })
})
