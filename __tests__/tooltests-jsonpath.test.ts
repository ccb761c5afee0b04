import { describe, expect, test } from '@jest/globals'
import type { Json } from '../src/config/types.js'
import { compilePath, pathProblem, queryValues, removePaths } from '../src/tooltests/jsonpath.js'

// RFC 9535 §1.5's example document.
const store: Json = {
  store: {
    book: [
      { category: 'reference', author: 'Nigel Rees', title: 'Sayings of the Century', price: 8.95 },
      { category: 'fiction', author: 'Evelyn Waugh', title: 'Sword of Honour', price: 12.99 },
      { category: 'fiction', author: 'Herman Melville', title: 'Moby Dick', isbn: '0-553-21311-3', price: 8.99 },
      { category: 'fiction', author: 'J. R. R. Tolkien', title: 'The Lord of the Rings', isbn: '0-395-19395-8', price: 22.99 }
    ],
    bicycle: { color: 'red', price: 399 }
  }
}

const item: Json = { id: 'ITM-005', bin: 'K-17-ZETA', stock: 3, 'odd key': 'o', tags: ['cast-iron', 'kitchen'], dims: { w: 30, h: 5 }, empty: [], none: null }

describe('queryValues follows RFC 9535', () => {
  const rows: [string, string, Json, Json[]][] = [
    ['root', '$', item, [item]],
    ['dot name', '$.bin', item, ['K-17-ZETA']],
    ['bracket name', "$['bin']", item, ['K-17-ZETA']],
    ['bracket name with a space', "$['odd key']", item, ['o']],
    ['double-quoted bracket name', '$["stock"]', item, [3]],
    ['nested', '$.dims.w', item, [30]],
    ['a null value is a node', '$.none', item, [null]],
    ['missing name: empty nodelist', '$.nope', item, []],
    ['name on a scalar: empty', '$.bin.x', item, []],
    ['index', '$.tags[0]', item, ['cast-iron']],
    ['negative index', '$.tags[-1]', item, ['kitchen']],
    ['index out of range: empty', '$.tags[5]', item, []],
    ['wildcard on an array', '$.tags[*]', item, ['cast-iron', 'kitchen']],
    ['wildcard on an object, in member order', '$.dims.*', item, [30, 5]],
    ['wildcard on an empty array', '$.empty[*]', item, []],
    ['union of names', "$['id','stock']", item, ['ITM-005', 3]],
    ['all authors', '$.store.book[*].author', store, ['Nigel Rees', 'Evelyn Waugh', 'Herman Melville', 'J. R. R. Tolkien']],
    ['descendant authors', '$..author', store, ['Nigel Rees', 'Evelyn Waugh', 'Herman Melville', 'J. R. R. Tolkien']],
    ['every price in the store', '$.store..price', store, [8.95, 12.99, 8.99, 22.99, 399]],
    ['third book by index', '$..book[2].title', store, ['Moby Dick']],
    ['last book', '$..book[-1].title', store, ['The Lord of the Rings']],
    ['slice [0:2]', '$..book[0:2].title', store, ['Sayings of the Century', 'Sword of Honour']],
    ['slice [:2]', '$..book[:2].price', store, [8.95, 12.99]],
    ['slice [1:]', '$.tags[1:]', item, ['kitchen']],
    ['slice with step', '$..book[::2].title', store, ['Sayings of the Century', 'Moby Dick']],
    ['slice reversed', '$.tags[::-1]', item, ['kitchen', 'cast-iron']],
    ['filter: existence', '$..book[?@.isbn].title', store, ['Moby Dick', 'The Lord of the Rings']],
    ['filter: comparison', '$..book[?@.price < 10].title', store, ['Sayings of the Century', 'Moby Dick']],
    ['filter: ?@.price > 3 on an array of numbers', '$[?@ > 3]', [1, 5, 3, 9], [5, 9]],
    ['filter: @.price > 3', '$.items[?@.price > 3].sku', { items: [{ sku: 'a', price: 2 }, { sku: 'b', price: 4 }] }, ['b']],
    ['filter: string equality', "$..book[?@.category == 'reference'].author", store, ['Nigel Rees']],
    ['filter: && and ||', '$..book[?@.price > 9 && @.price < 20 || @.price > 300].title', store, ['Sword of Honour']],
    ['filter: negation', '$..book[?!@.isbn].title', store, ['Sayings of the Century', 'Sword of Honour']],
    ['filter: against the root', '$..book[?@.price > $.store.bicycle.price].title', store, []],
    ['filter on an object selects its values', '$.store[?@.color].price', store, [399]],
    ['function length()', '$..book[?length(@.author) > 12].author', store, ['Herman Melville', 'J. R. R. Tolkien']],
    ['function count()', '$.store[?count(@.*) == 2].color', store, ['red']],
    ['function match(): the whole string', "$..book[?match(@.author, 'N.*')].author", store, ['Nigel Rees']],
    ['function match() is anchored', "$..book[?match(@.author, 'Rees')].author", store, []],
    ['function search(): a substring', "$..book[?search(@.author, 'Rees')].author", store, ['Nigel Rees']],
    ['function value()', "$..book[?value(@.category) == 'fiction'].price", store, [12.99, 8.99, 22.99]],
    ['an integer-like member name', "$['1']", { '1': 'one', list: [0, 'x'] }, ['one']]
  ]
  test.each(rows)('%s: %s', (_name, path, value, nodes) => {
    expect(queryValues(path, value)).toEqual(nodes)
  })
})

describe('compilePath', () => {
  test('compiles once', () => {
    expect(compilePath('$.a.b')).toBe(compilePath('$.a.b'))
  })
  const bad: [string, string][] = [
    ['$.a[', 'invalid JSONPath "$.a[": unclosed bracketed selection (at offset 4)'],
    ['a.b', 'invalid JSONPath "a.b": expected \'$\', found \'a\' (at offset 0)'],
    ['$..', 'invalid JSONPath "$..": bald descendant segment (at offset 3)'],
    ['$[?nope(@)]', "invalid JSONPath \"$[?nope(@)]\": no such function 'nope' (at offset 3)"]
  ]
  test.each(bad)('%s is rejected with the path named', (path, message) => {
    expect(() => compilePath(path)).toThrow(message)
    expect(pathProblem(path)).toBe(message)
  })
  test.each(['$.x', '$..y', '$[?@.a > 1]', "$['k']", '$[*]'])('%s has no problem', (path) => {
    expect(pathProblem(path)).toBeUndefined()
  })
  test('a non-singular query where a function needs a value is a type error at compile time', () => {
    expect(pathProblem('$[?length(@.*) > 1]')).toMatch(/^invalid JSONPath "\$\[\?length\(@\.\*\) > 1\]": /)
  })
  test('queryValues throws the same message on a bad path', () => {
    expect(() => queryValues('$.[', {})).toThrow(/^invalid JSONPath "\$\.\["/)
  })
})

describe('removePaths', () => {
  const doc: Json = { id: 'o-1', updated_at: '2026-01-01', items: [{ sku: 'a', ts: 1 }, { sku: 'b', ts: 2 }, { sku: 'c', ts: 3 }], meta: { ts: 9, keep: true } }
  const rows: [string, string[], Json, Json][] = [
    ['one member', ['$.updated_at'], doc, { id: 'o-1', items: [{ sku: 'a', ts: 1 }, { sku: 'b', ts: 2 }, { sku: 'c', ts: 3 }], meta: { ts: 9, keep: true } }],
    ['every descendant of a name', ['$..ts'], doc, { id: 'o-1', updated_at: '2026-01-01', items: [{ sku: 'a' }, { sku: 'b' }, { sku: 'c' }], meta: { keep: true } }],
    ['array elements, indices from the original', ['$.items[0]', '$.items[2]'], doc, { ...(doc as object), items: [{ sku: 'b', ts: 2 }] }],
    ['a filter', ["$.items[?@.sku == 'b']"], doc, { ...(doc as object), items: [{ sku: 'a', ts: 1 }, { sku: 'c', ts: 3 }] }],
    ['a parent and its child', ['$.meta', '$.meta.ts'], doc, { id: 'o-1', updated_at: '2026-01-01', items: [{ sku: 'a', ts: 1 }, { sku: 'b', ts: 2 }, { sku: 'c', ts: 3 }] }],
    ['nothing selected', ['$.nope'], doc, doc],
    ['no paths', [], doc, doc],
    ['the root', ['$'], doc, null],
    ['"0" the name is not 0 the index', ["$['0']", '$.list[0]'], { '0': 'x', list: ['y', 'z'] }, { list: ['z'] }],
    ['a name with a slash is not a nested path', ["$['a/b']"], { 'a/b': 1, a: { b: 2 } }, { a: { b: 2 } }],
    ['on a scalar', ['$.x'], 'text', 'text']
  ]
  test.each(rows)('%s', (_name, paths, value, expected) => {
    expect(removePaths(value, paths)).toEqual(expected)
  })
  test('works on a copy', () => {
    const original: Json = { a: { b: 1, c: 2 }, list: [1, 2] }
    const before = structuredClone(original)
    const out = removePaths(original, ['$.a.b', '$.list[0]']) as { a: Record<string, Json> }
    expect(original).toEqual(before)
    out.a.c = 99
    expect(original).toEqual(before)
    const untouched = removePaths(original, ['$.nope']) as { a: Record<string, Json> }
    untouched.a.b = 5
    expect(original).toEqual(before)
  })
})
