import { describe, expect, test } from '@jest/globals'
import type { CallOutcome } from '../src/mcp/types.js'
import { resourceContents } from '../src/mcp/resource-contents.js'

// The one reading of a resource for the evals/v1 `resource` assertions, a check's and a turn's alike.
const session = (outcome: CallOutcome) => ({ readResource: async () => outcome })
const signal = new AbortController().signal

describe('resourceContents', () => {
  test('the raw {contents} as the server sent them', async () => {
    const result = { contents: [{ uri: 'config://settings', mimeType: 'application/json', text: '{"theme":"dark"}' }] }
    expect(await resourceContents(session({ text: '{"theme":"dark"}', isError: false, result }), 'config://settings', signal)).toEqual(result)
  })

  test('a refusal names the JSON-RPC error; a failed read the server text; an outcome without its raw result reads as one text block', async () => {
    await expect(resourceContents(session({ text: 'MCP error -32002: not found', isError: true, protocol_error: { code: -32002, message: 'Resource not found' } }), 'x://y', signal)).rejects.toThrow('JSON-RPC error -32002: Resource not found')
    await expect(resourceContents(session({ text: 'the server needs an answer', isError: true }), 'x://y', signal)).rejects.toThrow('the server needs an answer')
    await expect(resourceContents(session({ text: '', isError: true }), 'x://y', signal)).rejects.toThrow('reading x://y failed')
    expect(await resourceContents(session({ text: 'hello', isError: false }), 'x://y', signal)).toEqual({ contents: [{ uri: 'x://y', text: 'hello' }] })
  })
})
