import type { MediaRecord, ModelView, ResultCut, ResultsDocument, RunResult, ToolCallResult } from '../results/types.js'
import { count, wholeNumber } from '../util/words.js'
import { codeHtml, codeSpan, escapeMarkdown } from './escape.js'
import { byteSize } from './telemetry-figures.js'
import { byCodeUnits } from '../util/text.js'

/** How many call lines (cuts, media, pattern errors) a run's block lists before "and N more". */
const CALLS_LISTED = 20

const be = (k: number) => (k === 1 ? 'was' : 'were')

/** A model-view as a run holds it; a document written before version 7 has none. */
const viewOf = (run: RunResult): ModelView | null => run.model_view ?? null

/** Whether the model saw less of the result than the server sent. */
const cutForModel = (cut: ResultCut | undefined): cut is ResultCut => cut !== undefined && cut.shown_chars < cut.total_chars

/** "the model saw 5,000 of 300,000 characters; the record keeps 262,144", and the cases where one side has all of it. */
function cutWords(cut: ResultCut): string {
  const seen = cut.shown_chars < cut.total_chars ? `the model saw ${wholeNumber(cut.shown_chars)} of ${wholeNumber(cut.total_chars)} characters` : `the model saw all ${wholeNumber(cut.total_chars)} characters`
  const kept = cut.kept_chars < cut.total_chars ? `the record keeps ${wholeNumber(cut.kept_chars)}` : 'the record keeps all of them'
  return `${seen}; ${kept}`
}

/**
 * "image `image/png`, 12.3 KiB, sent to the model" or "…, shown to the model as text: <why>"; the
 * why left out for audio (never sent) and when the run's notes say it already (`said`).
 */
function mediaWords(media: MediaRecord, said: (reason: string) => boolean): string {
  const what = `${media.type} ${codeSpan(media.mime_type)}, ${byteSize(media.bytes)}`
  if (media.sent) return `${what}, sent to the model`
  const reason = media.reason?.replace(/\.\s*$/, '') ?? ''
  const why = media.type === 'audio' || reason === '' ? '' : said(reason) ? ' (see above)' : `: ${escapeMarkdown(reason)}`
  return `${what}, shown to the model as text${why}`
}

/** One line for each call the model saw differently from what the server sent: its cut, its media, the pattern that made it a tool error. */
function callLines(run: RunResult): string[] {
  const notes = run.model_view?.notes ?? []
  const said = (reason: string) => notes.some((note) => note.includes(reason))
  const lines: string[] = []
  run.tool_calls.forEach((call, i) => {
    const who = `${codeSpan(call.name)} (call ${i + 1})`
    if (call.cut && (call.cut.shown_chars < call.cut.total_chars || call.cut.kept_chars < call.cut.total_chars)) lines.push(`- ${who}: ${cutWords(call.cut)}`)
    for (const media of call.media ?? []) lines.push(`- ${who}: ${mediaWords(media, said)}`)
    if (call.error_pattern !== undefined && !call.is_error) lines.push(`- ${who}: counted as a tool error, its text matched the tool_error_patterns entry ${codeSpan(call.error_pattern)}`)
  })
  if (lines.length <= CALLS_LISTED) return lines
  return [...lines.slice(0, CALLS_LISTED), `- … and ${wholeNumber(lines.length - CALLS_LISTED)} more`]
}

/**
 * The "What the model saw" block of a run's details: the engine's notes, then each cut result
 * (what the model saw, what the record keeps), each image or audio block (sent, or why not), each
 * result a tool_error_patterns entry made a tool error, and the kept `${RUN_DIR}` (the ui:// resources
 * and app-only tools, the same for every run of a server, are said once: appsNotice). Empty when
 * there is nothing to say. Server and model text escaped.
 */
export function modelViewLines(run: RunResult): string[] {
  const view = viewOf(run)
  const notes = view?.notes ?? []
  const items = callLines(run)
  const runDir = run.run_dir ?? null
  if (notes.length === 0 && items.length === 0 && runDir === null) return []
  const out = ['##### What the model saw', '']
  if (notes.length > 0) out.push(notes.map(escapeMarkdown).join(' '), '')
  if (items.length > 0) out.push(...items, '')
  if (runDir !== null) out.push(`Run directory kept (\`keep_run_dirs\`): ${codeSpan(runDir)}`, '')
  return out
}

/** The parts of a call's note, code spans written by `code`: the pattern error, then what the model was shown. */
function noteOf(call: ToolCallResult, code: (text: string) => string): string {
  const error = call.error_pattern !== undefined && !call.is_error ? ` → error (tool_error_patterns: ${code(call.error_pattern)})` : ''
  const parts: string[] = []
  if (cutForModel(call.cut)) parts.push(`cut for the model: ${wholeNumber(call.cut.shown_chars)} of ${wholeNumber(call.cut.total_chars)} characters`)
  const media = call.media ?? []
  const sent = media.filter((m) => m.type === 'image' && m.sent).length
  const imagesAsText = media.filter((m) => m.type === 'image' && !m.sent).length
  const audio = media.filter((m) => m.type === 'audio').length
  if (sent > 0) parts.push(`${count(sent, 'image')} sent`)
  if (imagesAsText > 0) parts.push(`${count(imagesAsText, 'image')} shown as text`)
  if (audio > 0) parts.push(`${count(audio, 'audio block')} shown as text`)
  return `${error}${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`
}

/**
 * A suffix for a tool call's Markdown line: " → error (tool_error_patterns: `…`)" when a pattern
 * made it a tool error, then " (cut for the model: 5,000 of 300,000 characters; 1 image sent)";
 * empty when the model saw the result as the server sent it.
 */
export function toolCallNote(call: ToolCallResult): string {
  return noteOf(call, codeSpan)
}

/** `toolCallNote` for HTML (a <summary>): the same words, the pattern in <code>, entities escaped. */
export function toolCallNoteHtml(call: ToolCallResult): string {
  return noteOf(call, codeHtml)
}

/**
 * One line for the top of the report when a model was shown less than it could have been: tool
 * results cut before the model saw them, images shown as text to a model not known to take
 * images. Empty otherwise.
 */
export function modelViewNotice(doc: ResultsDocument): string[] {
  const views = doc.runs.map(viewOf).filter((v): v is ModelView => v !== null)
  const cut = views.filter((v) => v.cut_results > 0)
  const cuts = cut.reduce((k, v) => k + v.cut_results, 0)
  const images = views.filter((v) => !v.vision).reduce((k, v) => k + v.images_as_text, 0)
  const parts: string[] = []
  if (cuts > 0) {
    const limits = [...new Set(cut.map((v) => v.max_tool_result_chars))].sort((a, b) => a - b).map(wholeNumber)
    parts.push(`${count(cuts, 'tool result')} ${be(cuts)} cut to ${limits.join(' or ')} characters before the model saw ${cuts === 1 ? 'it' : 'them'} (\`max_tool_result_chars\`)`)
  }
  if (images > 0) {
    parts.push(`${count(images, 'image')} reached a model not known to take images and ${be(images)} shown to it as text (\`vision: true\` on a \`models:\` entry, or \`vision_models:\`)`)
  }
  return parts.length === 0 ? [] : [`_${parts.join('; ')}._`, '']
}

/**
 * One line for the top of the report when the server has MCP Apps parts the models were not
 * offered: its ui:// resources (with the tools that link them) and its app-only tools, over every
 * run (they are the server's, not a run's). Empty otherwise. Server text escaped.
 */
export function appsNotice(doc: ResultsDocument): string[] {
  const resources = new Map<string, { listed: boolean; linked: Set<string> }>()
  const tools = new Set<string>()
  for (const view of doc.runs.map(viewOf)) {
    for (const resource of view?.app_resources ?? []) {
      const seen = resources.get(resource.uri) ?? { listed: false, linked: new Set<string>() }
      seen.listed ||= resource.name !== null
      for (const tool of resource.linked_by) seen.linked.add(tool)
      resources.set(resource.uri, seen)
    }
    for (const tool of view?.app_only_tools ?? []) tools.add(tool)
  }
  if (resources.size === 0 && tools.size === 0) return []
  const resourceWords = [...resources.entries()]
    .sort(([a], [b]) => byCodeUnits(a, b))
    .map(([uri, seen]) => {
      const linked = [...seen.linked].sort(byCodeUnits).map(codeSpan)
      const details = [...(seen.listed ? [] : ['not in resources/list']), ...(linked.length ? [`linked by ${linked.join(', ')}`] : [])]
      return `${codeSpan(uri)}${details.length ? ` (${details.join('; ')})` : ''}`
    })
  const toolWords = [...tools].sort(byCodeUnits).map(codeSpan)
  const parts = [
    ...(resourceWords.length ? [`the ${resourceWords.length === 1 ? 'app resource' : 'app resources'} ${resourceWords.join(', ')}`] : []),
    ...(toolWords.length ? [`the ${toolWords.length === 1 ? 'app-only tool' : 'app-only tools'} ${toolWords.join(', ')} (\`_meta.ui.visibility\` leaves out "model")`] : [])
  ]
  return [`_Not offered to the model (MCP Apps, for a host to render): ${parts.join('; ')}._`, '']
}
