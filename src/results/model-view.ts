/** What the model under test was shown of the server: cut results, images and audio, MCP Apps resources. */

/** How much of a tool result the model saw and the record keeps, against what the server sent (issue 15). */
export interface ResultCut {
  /** The server's text (the result as the model is shown it, before any cut), in characters and UTF-8 bytes. */
  total_chars: number
  total_bytes: number
  /** The model saw its first `shown_chars` characters, then a marker saying how much was left out; `total_chars` when it saw all. */
  shown_chars: number
  /** `result` keeps its first `kept_chars` characters, then a marker; `total_chars` when it keeps all. */
  kept_chars: number
}

/** One image or audio block of a tool result. */
export interface MediaRecord {
  type: 'image' | 'audio'
  mime_type: string
  /** Its decoded size. */
  bytes: number
  /** Sent to the model as an image content part (in a user message right after the step's tool messages). */
  sent: boolean
  /** Why it was not sent, in a sentence (the model does not take images, audio is never sent, the format, the size); null when sent. */
  reason: string | null
  /** A copy of the image as a `data:image/…;base64,` URL, for the HTML report: PNG, JPEG, GIF or WebP of at most 100 KiB decoded; absent otherwise (and for audio). */
  preview?: string
}

/** An MCP Apps UI resource (ui://, text/html;profile=mcp-app, or linked by a tool and not listed): HTML for a host to render, not offered to the model as a function. */
export interface AppResource {
  uri: string
  /** Its name in resources/list; null when the server lists no such resource (a tool links it all the same). */
  name: string | null
  mime_type: string | null
  /** The tools whose `_meta.ui.resourceUri` names it. */
  linked_by: string[]
}

/** What the model under test was shown of the server, and what it was not (issue 15). */
export interface ModelView {
  /** The limit in force; 0: none. */
  max_tool_result_chars: number
  /** Whether image blocks were sent to this model as images. */
  vision: boolean
  /** What decided it: `vision:` on the model's `models:` entry, a `vision_models:` pattern, a known vision model pattern, or nothing (no vision). */
  vision_source: 'models' | 'vision_models' | 'known' | 'none'
  /** The pattern that matched, for `vision_models` and `known`; null otherwise. */
  vision_pattern: string | null
  /** Tool results the model saw cut. */
  cut_results: number
  images_sent: number
  /** Images the model was shown as a text placeholder (`[image: image/png]`). */
  images_as_text: number
  audio_as_text: number
  /** ui:// resources, not offered to the model as functions. */
  app_resources: AppResource[]
  /** Tools not offered to the model: their MCP Apps `_meta.ui.visibility` leaves out "model". */
  app_only_tools: string[]
  /** What the model (or the judge) was not shown, in sentences; empty when it was shown everything. */
  notes: string[]
}
