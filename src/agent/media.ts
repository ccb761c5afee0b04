import type { ChatContentPart, ChatMessage } from '../llm/chat.js'
import type { McpMedia } from '../mcp/content.js'
import type { MediaRecord } from '../results/types.js'
import { wholeNumber } from '../util/words.js'

/**
 * Which image blocks of a tool result reach the model as images, and the user message that
 * carries them (issue 15). The tool role cannot carry images in the OpenAI chat format, so the
 * images of one step go in one user message after all of that step's tool messages; the tool
 * message keeps the text placeholder, saying the image follows.
 */

/** The image formats OpenAI-compatible APIs take as `image_url` data URLs. */
const SENDABLE_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp']

/** The largest image (decoded) sent to the model: OpenAI's limit per image. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024

/**
 * The most image bytes (decoded) one run sends, all its images together: every later request of
 * the run carries every image again, and providers cap a request's size (OpenAI: 50 MB).
 */
export const MAX_RUN_IMAGE_BYTES = 20 * 1024 * 1024

/** Why an audio block is not sent: the chat format this harness speaks takes no audio input. */
export const AUDIO_REASON = 'audio is never sent to a model'

/** Why an image is not sent to a model that is not known to take images. */
export function notVisionReason(model: string): string {
  return `${model} is not known to take images: set vision: true on it under models:, or add a pattern to vision_models:`
}

/** The media type of a block without parameters, lower-cased; `image/jpg` (common, not registered) read as `image/jpeg`. */
function imageType(mimeType: string): string {
  const type = mimeType.split(';')[0].trim().toLowerCase()
  return type === 'image/jpg' ? 'image/jpeg' : type
}

/** Base64 as the block carries it, without the line breaks some encoders put in. */
function base64Of(data: string): string {
  return data.replace(/[\t\n\r ]+/g, '')
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Whether `data` is standard base64 (padded, whitespace aside) of at least one byte. */
function isValidBase64(data: string): boolean {
  const compact = base64Of(data)
  return compact.length > 0 && compact.length % 4 === 0 && BASE64.test(compact)
}

/** The decoded size of a block's data, without decoding it. */
function decodedBytes(data: string): number {
  return Buffer.byteLength(base64Of(data), 'base64')
}

/**
 * The largest image (decoded) the record keeps a copy of, as `preview`, for the HTML report to
 * show: enough for a chart or a screenshot, small enough that a run of many images does not
 * swell the journal and the document.
 */
export const MAX_PREVIEW_BYTES = 100 * 1024

/** A copy of an image block for the record (a data: URL), when it is a raster format, valid base64 and at most MAX_PREVIEW_BYTES decoded. */
function previewOf(media: McpMedia, bytes: number): string | undefined {
  if (media.type !== 'image' || bytes > MAX_PREVIEW_BYTES || !isValidBase64(media.data)) return undefined
  const type = imageType(media.mime_type)
  return SENDABLE_IMAGE_TYPES.includes(type) ? `data:${type};base64,${base64Of(media.data)}` : undefined
}

/**
 * What becomes of one image or audio block: sent as an image when the model takes images and
 * the image is one it can be sent (a format in SENDABLE_IMAGE_TYPES, valid base64, at most
 * MAX_IMAGE_BYTES decoded, and the run's images so far, `alreadySent` bytes, still within
 * MAX_RUN_IMAGE_BYTES with it), else a text placeholder, with the first reason that applies;
 * a small raster image keeps a copy (previewOf), sent or not.
 */
export function mediaRecordOf(media: McpMedia, model: { model: string; vision: boolean }, alreadySent = 0): MediaRecord {
  const bytes = decodedBytes(media.data)
  const preview = previewOf(media, bytes)
  const record = (reason: string | null): MediaRecord => ({ type: media.type, mime_type: media.mime_type, bytes, sent: reason === null, reason, ...(preview ? { preview } : {}) })
  if (media.type === 'audio') return record(AUDIO_REASON)
  if (!model.vision) return record(notVisionReason(model.model))
  if (!SENDABLE_IMAGE_TYPES.includes(imageType(media.mime_type))) return record(`${media.mime_type} is not a format the model can be sent as an image (${SENDABLE_IMAGE_TYPES.join(', ')})`)
  if (!isValidBase64(media.data)) return record('its data is not valid base64')
  if (bytes > MAX_IMAGE_BYTES) return record(`it is ${wholeNumber(bytes)} bytes, more than the ${wholeNumber(MAX_IMAGE_BYTES)} bytes (20 MiB) an image may have`)
  if (alreadySent + bytes > MAX_RUN_IMAGE_BYTES) return record(`the run's images would pass ${wholeNumber(MAX_RUN_IMAGE_BYTES)} bytes (20 MiB) with it, and every later request carries them all again`)
  return record(null)
}

/** What a sent image's placeholder becomes in the tool message, in place of contentToText's `[image: …]`: `[image: image/png, sent in the next message]`. */
function sentPlaceholder(mimeType: string): string {
  return `[image: ${mimeType}, sent in the next message]`
}

/**
 * The tool result's text with the placeholder of each sent image (`[image: image/png]`, in
 * block order) saying the image follows: `[image: image/png, sent in the next message]`.
 * `media` is every media block of the result, in order, with whether it was sent.
 */
export function markSentImages(text: string, media: readonly { media: McpMedia; sent: boolean }[]): string {
  let out = ''
  let from = 0
  for (const { media: block, sent } of media) {
    const placeholder = `[${block.type}: ${block.mime_type}]`
    const at = text.indexOf(placeholder, from)
    if (at < 0) continue
    out += text.slice(from, at) + (sent ? sentPlaceholder(block.mime_type) : placeholder)
    from = at + placeholder.length
  }
  return out + text.slice(from)
}

/** An image sent to the model, and the tool call whose result held it. */
export interface SentImage {
  tool: string
  media: McpMedia
}

/**
 * The user message that shows the model a step's images: a line naming each (`1. render_chart
 * (image/png)`), then the images as data URLs, in order. Null when there are none.
 */
export function imagesMessage(images: readonly SentImage[]): ChatMessage | null {
  if (images.length === 0) return null
  const list = images.map((image, i) => `${i + 1}. ${image.tool} (${imageType(image.media.mime_type)})`).join('; ')
  const content: ChatContentPart[] = [
    { type: 'text', text: `The images the tool results above returned, in order: ${list}.` },
    ...images.map((image): ChatContentPart => ({ type: 'image_url', image_url: { url: `data:${imageType(image.media.mime_type)};base64,${base64Of(image.media.data)}` } }))
  ]
  return { role: 'user', content }
}
