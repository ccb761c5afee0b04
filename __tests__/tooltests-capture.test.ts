import { describe, expect, test } from '@jest/globals'
import type { Json } from '../src/config/types.js'
import type { StepResponse } from '../src/results/types.js'
import { CAPTURE_NAME, captureFromResponse, captureValues, malformedPlaceholders, referencedCaptures, substituteCaptures } from '../src/tooltests/capture.js'

const captured: Record<string, Json> = { order: 'ORD-7', qty: 2, price: 9.5, ok: true, none: null, item: { id: 'ITM-1', tags: ['a'] }, list: [1, 2] }

describe('substituteCaptures', () => {
  const rows: [string, Record<string, Json>, Record<string, Json>][] = [
    ['exactly ${name}: a string', { id: '${order}' }, { id: 'ORD-7' }],
    ['exactly ${name}: a number stays a number', { quantity: '${qty}' }, { quantity: 2 }],
    ['exactly ${name}: a bool', { flag: '${ok}' }, { flag: true }],
    ['exactly ${name}: null', { v: '${none}' }, { v: null }],
    ['exactly ${name}: an object', { item: '${item}' }, { item: { id: 'ITM-1', tags: ['a'] } }],
    ['inside a string: a string as it is', { q: 'order ${order} please' }, { q: 'order ORD-7 please' }],
    ['inside a string: a number as JSON', { q: 'qty=${qty}' }, { q: 'qty=2' }],
    ['inside a string: an object as JSON', { q: 'item: ${item}' }, { q: 'item: {"id":"ITM-1","tags":["a"]}' }],
    ['inside a string: null as JSON', { q: '[${none}]' }, { q: '[null]' }],
    ['two placeholders', { q: '${order}/${qty}' }, { q: 'ORD-7/2' }],
    ['the same one twice', { q: '${qty}${qty}' }, { q: '22' }],
    ['nested in arrays and objects', { lines: [{ id: '${order}', n: ['${qty}', 'x${qty}'] }] }, { lines: [{ id: 'ORD-7', n: [2, 'x2'] }] }],
    ['keys are not substituted', { '${order}': 1 }, { '${order}': 1 }],
    ['non-strings untouched', { a: 1, b: false, c: null, d: [1.5] }, { a: 1, b: false, c: null, d: [1.5] }],
    ['$${ is a literal ${', { tpl: '$${order}' }, { tpl: '${order}' }],
    ['$${ next to a real one', { tpl: '$${order}=${order}' }, { tpl: '${order}=ORD-7' }],
    ['a lone $ is text', { price: '$5 for ${order}' }, { price: '$5 for ORD-7' }],
    ['not a placeholder: a space in the name', { q: '${order id}' }, { q: '${order id}' }]
  ]
  test.each(rows)('%s', (_name, args, expected) => {
    expect(substituteCaptures(args, captured)).toEqual({ args: expected, missing: [] })
  })

  test('a missing name is left as written and reported once', () => {
    expect(substituteCaptures({ a: '${nope}', b: 'x ${nope} ${order}', c: ['${other}'] }, captured)).toEqual({
      args: { a: '${nope}', b: 'x ${nope} ORD-7', c: ['${other}'] },
      missing: ['nope', 'other']
    })
  })
  test('an inherited name is not a capture', () => {
    expect(substituteCaptures({ a: '${toString}' }, {}).missing).toEqual(['toString'])
  })
  test('does not change its input', () => {
    const args: Record<string, Json> = { a: ['${qty}'] }
    substituteCaptures(args, captured)
    expect(args).toEqual({ a: ['${qty}'] })
  })
})

describe('referencedCaptures and malformedPlaceholders', () => {
  test('names in order of first use, deep, without escapes', () => {
    expect(referencedCaptures({ a: '${order}', b: [{ c: 'x ${qty} ${order}' }], d: '$${escaped}', e: 3 })).toEqual(['order', 'qty'])
  })
  test('none', () => {
    expect(referencedCaptures({ a: 'plain', b: '$${x}' })).toEqual([])
  })
  test('malformed placeholders are listed', () => {
    expect(malformedPlaceholders({ a: '${order id}', b: ['x ${unclosed'], c: '${ok}', d: '$${fine}', e: '${}' })).toEqual(['${order id}', 'x ${unclosed', '${}'])
  })
  test('CAPTURE_NAME', () => {
    expect(['order', '_x', 'order_id', 'a-b', 'A1'].every((n) => CAPTURE_NAME.test(n))).toBe(true)
    expect(['1a', 'a b', '', 'a.b', '-a'].some((n) => CAPTURE_NAME.test(n))).toBe(false)
  })
})

describe('captureValues', () => {
  const value: Json = { order_id: 'ORD-7', items: [{ id: 'a' }, { id: 'b' }], total: 19, none: null }
  test('exactly one node: captured, with a passing check', () => {
    expect(captureValues({ order: '$.order_id', total: '$.total' }, value)).toEqual({
      captured: { order: 'ORD-7', total: 19 },
      checks: [
        { check: 'capture', path: '$.order_id', passed: true, expected: 'order', actual: 'ORD-7', reason: 'captured order = "ORD-7"' },
        { check: 'capture', path: '$.total', passed: true, expected: 'total', actual: 19, reason: 'captured total = 19' }
      ]
    })
  })
  test('a null is a value', () => {
    expect(captureValues({ n: '$.none' }, value).captured).toEqual({ n: null })
  })
  test('nothing selected fails', () => {
    const { captured: got, checks } = captureValues({ order: '$.orderId' }, value)
    expect(got).toEqual({})
    expect(checks).toEqual([{ check: 'capture', path: '$.orderId', passed: false, expected: 'order', actual: null, reason: 'no value at $.orderId to capture as order' }])
  })
  test('several nodes fail rather than taking the first', () => {
    const { captured: got, checks } = captureValues({ id: '$.items[*].id' }, value)
    expect(got).toEqual({})
    expect(checks[0]).toMatchObject({ passed: false, actual: ['a', 'b'], reason: '$.items[*].id selects 2 values; a capture needs exactly one (index it, e.g. [0], to pick one)' })
  })
  test('an indexed path picks one', () => {
    expect(captureValues({ id: '$.items[0].id' }, value).captured).toEqual({ id: 'a' })
  })
  test('a bad path fails the capture', () => {
    const { checks } = captureValues({ id: '$.[' }, value)
    expect(checks[0].passed).toBe(false)
    expect(checks[0].reason).toMatch(/^cannot capture id: invalid JSONPath "\$\.\["/)
  })
  test('one failure does not stop the others', () => {
    const { captured: got, checks } = captureValues({ a: '$.nope', b: '$.total' }, value)
    expect(got).toEqual({ b: 19 })
    expect(checks.map((c) => c.passed)).toEqual([false, true])
  })
})

describe('captureFromResponse', () => {
  const result = (structured: Json | null, text?: string): StepResponse => ({ kind: 'result', is_error: false, content: text === undefined ? [] : [{ type: 'text', text }], structured_content: structured })
  test('from structuredContent', () => {
    expect(captureFromResponse({ order: '$.order_id' }, result({ order_id: 'ORD-1' }, '{"order_id":"ignored"}')).captured).toEqual({ order: 'ORD-1' })
  })
  test('from text that is JSON', () => {
    expect(captureFromResponse({ order: '$.order_id' }, result(null, '{"order_id":"ORD-2"}')).captured).toEqual({ order: 'ORD-2' })
  })
  test('from a JSON-RPC error', () => {
    expect(captureFromResponse({ code: '$.code' }, { kind: 'error', code: -32602, message: 'bad', data: null }).captured).toEqual({ code: -32602 })
  })
  test('text that is not JSON fails every capture with the reason', () => {
    const { captured: got, checks } = captureFromResponse({ a: '$.a', b: '$.b' }, result(null, 'Order ORD-3 created'))
    expect(got).toEqual({})
    expect(checks).toEqual([
      { check: 'capture', path: '$.a', passed: false, expected: 'a', actual: null, reason: 'cannot capture a: the result has no structuredContent and its text is not JSON: "Order ORD-3 created"' },
      { check: 'capture', path: '$.b', passed: false, expected: 'b', actual: null, reason: 'cannot capture b: the result has no structuredContent and its text is not JSON: "Order ORD-3 created"' }
    ])
  })
})
