import { describe, expect, test } from '@jest/globals'
import { meaningfulTail } from '../src/util/stderr-tail.js'

/** What Node 20 prints for an uncaught error at startup. */
const NODE_CRASH = [
  'node:internal/modules/cjs/loader:1228',
  '  throw err;',
  '  ^',
  '',
  "Error: Cannot find module '/srv/app/dist/index.js'",
  '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
  '    at Module._load (node:internal/modules/cjs/loader:1051:27)',
  '    at node:internal/main/run_main_module:28:49 {',
  "  code: 'MODULE_NOT_FOUND',",
  '  requireStack: []',
  '}',
  '',
  'Node.js v20.11.1',
  ''
].join('\n')

describe('meaningfulTail', () => {
  test('a Node crash keeps its Error line, not "} | | Node.js v20"', () => {
    const tail = meaningfulTail(NODE_CRASH)
    expect(tail.split('\n')).toEqual(["Error: Cannot find module '/srv/app/dist/index.js'", "code: 'MODULE_NOT_FOUND',", 'requireStack: []'])
  })

  test('blank lines, stack frames, lone brackets and carets are dropped', () => {
    expect(meaningfulTail('starting\n\n   \n    at foo (x.js:1:1)\n}\n  ^\n])\nready\n')).toBe('starting\nready')
  })

  test('the last error line survives when later lines would push it out, in its place first', () => {
    const text = ['loading config', 'fatal: could not open database at /db.sqlite', 'retrying in 1s', 'retrying in 2s', 'giving up'].join('\n')
    expect(meaningfulTail(text).split('\n')).toEqual(['fatal: could not open database at /db.sqlite', 'retrying in 2s', 'giving up'])
    expect(meaningfulTail('TypeError: x is not a function\na\nb\nc', 2)).toBe('TypeError: x is not a function\nc')
    expect(meaningfulTail('error: unknown option --port\na\nb\nc', 1)).toBe('error: unknown option --port')
  })

  test('without an error line: simply the last meaningful lines', () => {
    expect(meaningfulTail('a\nb\nc\nd\n')).toBe('b\nc\nd')
    expect(meaningfulTail('one line')).toBe('one line')
    expect(meaningfulTail('')).toBe('')
    expect(meaningfulTail('\n\nNode.js v20.0.0\n')).toBe('')
  })

  test('an error line already in the tail is not repeated', () => {
    expect(meaningfulTail('x\ny\nError: boom\nz', 3)).toBe('y\nError: boom\nz')
  })
})
