import { sliceChars } from '../util/text.js'
import { wholeNumber } from '../util/words.js'

/**
 * How much of a text the model, the judge and the record are given (issue 15): the first N
 * characters, then a marker saying what was left out. One module, so every place that cuts says
 * it the same way.
 */

/** What a cut appends to the text it keeps: built from the characters left out and the text's full length. */
export type CutMarker = (left: number, total: number) => string

/** A text as it is passed on: `text` (cut, with its marker, or whole), and how many of its characters were kept before the marker. */
export interface BoundText {
  text: string
  /** Characters of the original kept before the marker; the original's length when nothing was cut. */
  shown: number
}

/** The least the record keeps of a result, whatever max_tool_result_chars says (0 included). */
export const RECORD_MIN_CHARS = 262_144

/** The marker after a text the model (or the judge, or the simulated user) was shown cut. */
export function MODEL_CUT_MARKER(left: number, total: number, limit: number): string {
  return `\n\n[… ${wholeNumber(left)} of ${wholeNumber(total)} characters cut here by the evaluation harness (max_tool_result_chars ${wholeNumber(limit)})]`
}

/** The marker after a result the record keeps cut (the model may have seen less, never more). */
export function RECORD_CUT_MARKER(left: number): string {
  return `\n\n[… ${wholeNumber(left)} more characters the server sent, not kept in this record]`
}

/**
 * `text` whole when `limit` is 0 or it is no longer than `limit`; otherwise its first `limit`
 * characters (one fewer when a surrogate pair straddles the edge: it is never split) and then
 * `marker(left, total)`.
 */
export function cutText(text: string, limit: number, marker: CutMarker): BoundText {
  if (limit <= 0 || text.length <= limit) return { text, shown: text.length }
  const kept = sliceChars(text, 0, limit)
  return { text: kept + marker(text.length - kept.length, text.length), shown: kept.length }
}

/** What the model is shown of a text under max_tool_result_chars `limit` (0: all of it). */
export function boundForModel(text: string, limit: number): BoundText {
  return cutText(text, limit, (left, total) => MODEL_CUT_MARKER(left, total, limit))
}

/** How many characters of a result the record keeps under max_tool_result_chars `limit`: at least RECORD_MIN_CHARS, and never less than the model saw. */
export function recordBudget(limit: number): number {
  return Math.max(RECORD_MIN_CHARS, limit)
}

/** What the record keeps of a result under max_tool_result_chars `limit`. */
export function boundForRecord(text: string, limit: number): BoundText {
  return cutText(text, recordBudget(limit), (left) => RECORD_CUT_MARKER(left))
}
