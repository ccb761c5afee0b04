import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { documentJsonPieces } from '../src/output/document-json.js'
import { withoutFloatNoise, writeResults } from '../src/output/write-results.js'
import { fatalDocument } from '../src/output/documents.js'
import { linkedSignal } from '../src/util/linked-signal.js'
import { redactDeep } from '../src/util/redact.js'

const joined = (value: object) => [...documentJsonPieces(value)].join('')

describe('the document written in pieces', () => {
  test('is JSON.stringify(value, null, 2) byte for byte, whatever the shapes', () => {
    const values: object[] = [
      {},
      [],
      [1, { a: 2 }],
      { a: 1 },
      { runs: [] },
      { runs: [{}], groups: [[]], empty: {} },
      { a: undefined, f: () => 1, s: Symbol('x'), b: null, c: 'x' },
      { runs: [undefined, () => 1, { nested: { deep: [1, [2, { x: 'a\nb "quoted" \u2028' }]] } }, 'text', 0.5, null] },
      { text: 'line\nbreak', list: [{ k: [] }, { k: {} }], n: -0, big: 1e21, tiny: 1.5e-7 },
      { date: new Date(0), nested: { toJSON: () => 'as JSON' } },
      { toJSON: () => ({ replaced: true }) }
    ]
    for (const value of values) expect(joined(value)).toBe(`${JSON.stringify(value, null, 2)}\n`)
  })

  test('each run is a piece of its own', () => {
    const pieces = [...documentJsonPieces({ version: 1, runs: [{ i: 1 }, { i: 2 }, { i: 3 }], passed: true })]
    expect(pieces.filter((p) => p.includes('"i"'))).toHaveLength(3)
  })

  test('a fatal document is written as it always was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'doc-json-'))
    const doc = fatalDocument('no suite: sk-secret-value here', new Date(0), 'configuration')
    const written = writeResults(doc, { resultsPath: join(dir, 'r.json'), reportPath: join(dir, 'r.md') }, ['sk-secret-value'])
    const text = readFileSync(join(dir, 'r.json'), 'utf8')
    expect(text).toBe(`${JSON.stringify(redactDeep(withoutFloatNoise(doc), ['sk-secret-value']), null, 2)}\n`)
    expect(text).not.toContain('sk-secret-value')
    expect(written.results).toBe(text)
  })
})

describe('redaction and float noise copy only what changes', () => {
  test('a part without a secret is the part itself; the parts with one are new', () => {
    const clean = { list: [1, 2, { deep: 'nothing here' }] }
    const value = { clean, dirty: { text: 'the sk-abcdef key', other: { same: 'x' } }, ['sk-abcdef']: 1 }
    const out = redactDeep(value, ['sk-abcdef'])
    expect(out).toEqual({ clean, dirty: { text: 'the *** key', other: { same: 'x' } }, '***': 1 })
    expect(out.clean).toBe(clean)
    expect(out.dirty.other).toBe(value.dirty.other)
    expect(out).not.toBe(value)
    expect(value.dirty.text).toBe('the sk-abcdef key')
  })

  test('nothing to redact: the value itself', () => {
    const value = { a: [{ b: 'c' }], n: 0.5 }
    expect(redactDeep(value, ['zzzzzz'])).toBe(value)
  })

  test('float noise: copied where a number changes, and only there', () => {
    const kept = { score: 0.5, n: 3 }
    const value = { kept, noisy: [0.1 + 0.2, 'x'], big: Number.MAX_VALUE, nan: NaN }
    const out = withoutFloatNoise(value)
    expect(out.noisy[0]).toBe(0.3)
    expect(value.noisy[0]).toBe(0.1 + 0.2)
    expect(out.kept).toBe(kept)
    expect(Number.isNaN(out.nan)).toBe(true)
    expect(withoutFloatNoise(kept)).toBe(kept)
  })
})

describe('linkedSignal', () => {
  test('aborts with the first source, and lets go of its sources when released', () => {
    const a = new AbortController()
    const b = new AbortController()
    const linked = linkedSignal([a.signal, undefined, b.signal])
    b.abort(new Error('b first'))
    expect(linked.signal.aborted).toBe(true)
    expect((linked.signal.reason as Error).message).toBe('b first')
    a.abort(new Error('a later'))
    expect((linked.signal.reason as Error).message).toBe('b first')
    expect(linked.timedOut).toBe(false)
  })

  test('released: a source that aborts later does not reach it', () => {
    const a = new AbortController()
    const linked = linkedSignal([a.signal])
    linked.release()
    a.abort(new Error('too late'))
    expect(linked.signal.aborted).toBe(false)
  })

  test('a source already aborted: aborted at once', () => {
    const linked = linkedSignal([AbortSignal.abort(new Error('already'))], 10)
    expect((linked.signal.reason as Error).message).toBe('already')
  })

  test('the deadline: a TimeoutError, and timedOut', async () => {
    const linked = linkedSignal([new AbortController().signal], 5)
    await new Promise((resolve) => linked.signal.addEventListener('abort', resolve))
    expect((linked.signal.reason as Error).name).toBe('TimeoutError')
    expect(linked.timedOut).toBe(true)
  })

  test('aborted by its owner: with that reason, the deadline cleared', () => {
    const linked = linkedSignal([], 5)
    linked.abort(new Error('the call ended'))
    expect((linked.signal.reason as Error).message).toBe('the call ended')
    expect(linked.timedOut).toBe(false)
  })
})
