/** The message order_item's elicitation carries (both fixtures, both eras). */
export const ADDRESS_MESSAGE: string
/** The requestedSchema of that elicitation: street and city, both required strings. */
export const ADDRESS_SCHEMA: Record<string, unknown>
/** The message the `welcome` prompt's elicitation carries. */
export const NAME_MESSAGE: string

/** The reference order_item answers with for this order. */
export function orderRef(item: string, quantity: number, street: string, city: string): string

/** The sampling request params summarize_text sends for `text`. */
export function summarySampling(text: string): { messages: { role: string; content: { type: string; text: string } }[]; systemPrompt: string; maxTokens: number }

export function createMrtrServer(options?: { rounds?: number }): unknown

/** The hand-built answer to one inbound frame under the misbehaviour switches; undefined when the SDK answers it. */
export function handBuiltAnswer(message: unknown, switches?: { ask?: string; bad?: string }): Record<string, unknown> | undefined

export function startMrtrHttpServer(options?: { rounds?: number }): Promise<{ url: string; close(): Promise<void> }>
