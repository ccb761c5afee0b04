import { boundedFetch } from '../util/bounded-fetch.js'

/**
 * The provider's fetch (the OpenAI client's, src/llm/chat.ts): every answer's body is bounded by
 * MAX_BODY_BYTES (64 MiB) counted after decompression, so an endless body or a gzip bomb fails
 * that request with "the provider's answer was not read: it is longer than 64 MiB …" (the
 * client's retries apply) instead of filling the memory.
 */
export const providerFetch = boundedFetch((url: string | URL | Request, init?: RequestInit) => globalThis.fetch(url, init), 'provider')
