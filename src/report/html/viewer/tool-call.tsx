import type { MediaRecord, RunResult, ToolCallResult } from '../../../results/types.js'
import { JsonText, LongText, ms, Status } from './common.js'
import { CallAppRender } from './call-app-render.js'
import { Heading } from './heading.js'
import { InputRounds } from './input-rounds.js'
import { callAnchor } from './run-anchors.js'
import { cutWords, evidenceWords, mediaWords } from './run-words.js'

/** A media record's copy as an image source: only a raster data: URL (what the record keeps), never other text. */
const RASTER_DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}$/
const previewSrc = (media: MediaRecord): string | null => (media.preview && RASTER_DATA_URL.test(media.preview) ? media.preview : null)

const EXECUTIONS = ['not executed', 'executed once', 'executed twice']

/** The render a call opened, when it has one (src/report/app-findings.ts callRender). */
const callRender = (run: RunResult, call: ToolCallResult) => (call.app_render === undefined ? null : ((run.app_renders ?? []).find((r) => r.id === call.app_render) ?? null))

/**
 * One tool call, everything the record keeps of it: its arguments, its result (long results cut,
 * the cut marked; what the model saw and the record keeps against what the server sent), whether
 * it was an error, how long it took, its arguments against the inputSchema, the pattern that made
 * it an error, its images and audio, the fault injected and the attack carried, the server's
 * input rounds, and the MCP Apps view it opened. At `#run-N-call-K`, so the oracles and the
 * timeline can point at it.
 */
export function ToolCall({ run, index, level, output }: { run: RunResult; index: number; level: 4 | 5; output?: string | null }) {
  const call = run.tool_calls[index]
  const cut = cutWords(call.cut)
  const render = callRender(run, call)
  const crossings = (run.security?.attacks ?? []).map((attack) => ({ attack, evidence: attack.evidence.filter((e) => e.tool_call_index === index) })).filter((c) => c.evidence.length > 0)
  // The record's result is what the page shows; the conversation's text (cut at 2,000) only when the record has none.
  const result = call.result !== '' || !output ? call.result : output
  return (
    <div class={`tool-call${call.is_error ? ' tool-call-error' : ''}`}>
      <Heading level={level} id={callAnchor(run, index)}>
        Tool call {index + 1}: <code>{call.name}</code>
      </Heading>
      <p class="call-facts">
        <Status status={call.is_error ? 'failed' : 'ok'} label={call.is_error ? 'error' : 'ok'} /> · {ms(call.latency_ms)}
        {call.fault && (
          <>
            {' · '}
            <Status status="warn" label={`fault: ${call.fault.kind}`} />
          </>
        )}
        {call.injected && (
          <>
            {' · '}
            <Status status="warn" label={`attack: ${call.injected.payload}`} />
          </>
        )}
        {call.schema_valid === false && (
          <>
            {' · '}
            <Status status="fail" label="arguments outside the inputSchema" />
          </>
        )}
        {call.span_id && (
          <>
            {' · span '}
            <code>{call.span_id}</code>
          </>
        )}
      </p>
      {call.fault && (
        <p class="call-fault">
          Fault injected: <code>{call.fault.kind}</code> (call {call.fault.call} of this tool, {EXECUTIONS[call.fault.executions] ?? `executed ${call.fault.executions} times`}): {call.fault.detail}
        </p>
      )}
      {run.recovery?.evidence_call === index && (
        <p class="call-evidence">
          <Status status={run.recovery.passed ? 'passed' : 'failed'} label="recovery evidence" /> the {run.recovery.expected} the recovery oracle counted.
        </p>
      )}
      {crossings.map(({ attack, evidence }, k) => (
        <div key={k} class="call-evidence">
          <p>
            <Status status="failed" label="crossed the line" /> attack <code>{attack.payload}</code>:
          </p>
          <ul>
            {evidence.map((e, j) => (
              <li key={j}>
                {evidenceWords(e.kind)} — {e.detail}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {call.injected && (
        <p class="call-attack">
          Attack carried to the model: payload <code>{call.injected.payload}</code> via {call.injected.attack}
          {call.injected.position ? ` (${call.injected.position})` : ''}.
        </p>
      )}
      <p class="label">Arguments</p>
      <JsonText value={call.args} label={`arguments of ${call.name}`} />
      {call.schema_valid === false && call.schema_errors && <p>Outside the tool's inputSchema: {call.schema_errors}</p>}
      <p class="label">Result{call.is_error ? ' (error)' : ''}</p>
      <LongText text={result} label={`result of ${call.name}`} />
      {cut && <p class="call-cut">Cut: {cut}.</p>}
      {call.error_pattern !== undefined && !call.is_error && (
        <p>
          Counted as a tool error: its text matched the tool_error_patterns entry <code>{call.error_pattern}</code>.
        </p>
      )}
      {(call.media ?? []).length > 0 && (
        <>
          <p class="label">Media</p>
          <ul class="media-list">
            {call.media!.map((m, k) => (
              <li key={k}>
                {mediaWords(m)}
                {previewSrc(m) ? (
                  <figure class="picture">
                    <img src={previewSrc(m)!} alt={`image ${k + 1} of the result of ${call.name} (${m.mime_type})`} />
                  </figure>
                ) : (
                  m.type === 'image' && <span class="muted"> (no copy in the document: only raster images of at most 100 KiB are kept)</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      <InputRounds rounds={call.input_rounds ?? []} />
      {render && <CallAppRender render={render} />}
    </div>
  )
}
