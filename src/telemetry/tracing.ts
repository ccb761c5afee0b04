import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapSetter, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources'
import { AlwaysOnSampler, BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base'
import type { ChatClient, TokenUsage } from '../llm/chat.js'
import type { CallOutcome, McpSession, RawToolCall } from '../mcp/session.js'
import { wrapSession } from '../mcp/wrap-session.js'
import type { RunStatus } from '../results/types.js'
import { ATTR, OPERATION, OWN_ATTR, TOOL_ERROR, TRACER_NAME } from './semconv.js'
import type { OtlpTarget } from '../config/otlp.js'
import { describeExportFailure, otlpExporter, reportingFailures, shownEndpoint } from './span-export.js'

export interface TracingOptions {
  /** Where spans are exported (OTLP/HTTP); null: spans are still made (real ids, sampled), but go nowhere. */
  otlp: OtlpTarget | null
  /** Told once, for the whole evaluation, when spans could not be exported. */
  onWarning?: (message: string) => void
  /** Our version, on the resource as `service.version`. */
  serviceVersion: string
  /** Tests: where finished spans go instead of the OTLP exporter. */
  exporter?: SpanExporter
  /** How long `shutdown` may wait for the last spans to be sent; 3 s by default. */
  shutdownTimeoutMs?: number
}

/** Which run a trace is of. */
export interface RunIdentity {
  case_id: string
  model: string
  prompt_name: string
  attempt: number
  index: number
}

/** What a judge call answers with (a verdict, or the JudgeError it returned): its usage, and its score when it has one. */
export interface JudgeOutcome {
  usage?: TokenUsage | null
  score?: number | null
}

/** One evaluation's tracing: a W3C trace per run. */
export interface Tracing {
  /** Start a run's trace: its root span, open until `end`. */
  startRun(run: RunIdentity): RunTrace
  /** Send the spans still buffered, within the shutdown timeout, and stop. Never throws. */
  shutdown(): Promise<void>
}

/** One run's trace. Spans carry names and numbers, never message contents, arguments or results. */
export interface RunTrace {
  /** The trace id: 32 lowercase hex digits. */
  readonly traceId: string
  /** `traceparent` (and `tracestate` when set) of the current span: the tool call in flight, else the run's span. */
  meta(): Record<string, string>
  /** The session, each tools/call, resources/read and prompts/get in a CLIENT span; a call's outcome carries its span id. */
  session(session: McpSession): McpSession
  /** The client, each agent LLM call in a CLIENT span `chat {model}`. */
  chat(client: ChatClient): ChatClient
  /** `judge` (the judge's one or two LLM calls) in a span `judge {model}`; an outcome that is an Error is an error. */
  judge<T extends JudgeOutcome>(model: string, judge: () => Promise<T>): Promise<T>
  /** End the run's span (an error for status `error`); later calls do nothing. */
  end(status: RunStatus): void
}

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 3000

/**
 * The tracing of one evaluation, on its own provider: nothing global is registered (no provider,
 * no context manager, no propagator), parents are passed explicitly, so concurrent runs and a
 * bundled action cannot mix their contexts up.
 */
export function createTracing(options: TracingOptions): Tracing {
  let warned = false
  const warnOnce = (message: string) => {
    if (warned) return
    warned = true
    options.onWarning?.(message)
  }
  const { otlp } = options
  const exporter = options.exporter ?? (otlp ? otlpExporter(otlp) : null)
  const where = otlp ? shownEndpoint(otlp.url) : 'the span exporter'
  const onFailure = (error: unknown) =>
    warnOnce(`OpenTelemetry: spans could not be exported (${otlp ? describeExportFailure(error, otlp) : String(error)}); the evaluation goes on, its traces may be incomplete.`)
  const provider = new BasicTracerProvider({
    // Every run gets a real, sampled trace, whatever OTEL_TRACES_SAMPLER says: its id is in the record.
    sampler: new AlwaysOnSampler(),
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': TRACER_NAME, 'service.version': options.serviceVersion })),
    spanProcessors: exporter ? [new BatchSpanProcessor(reportingFailures(exporter, onFailure))] : []
  })
  const tracer = provider.getTracer(TRACER_NAME, options.serviceVersion)
  const timeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS
  let shutdown: Promise<void> | undefined

  return {
    startRun: (run) => startRunTrace(tracer, run),
    shutdown() {
      shutdown ??= (async () => {
        if (!exporter) return
        const finished = await withinTime(provider.shutdown(), timeoutMs)
        if (finished === 'failed') onFailure(new Error('the exporter failed to shut down'))
        if (finished === 'late') warnOnce(`OpenTelemetry: the last spans could not be sent to ${where} within ${timeoutMs / 1000} s; the traces may be incomplete.`)
      })()
      return shutdown
    }
  }
}

/** Whether `promise` settled within `ms`: done, failed, or late (still pending; left to itself). */
async function withinTime(promise: Promise<unknown>, ms: number): Promise<'done' | 'failed' | 'late'> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms)
    timer.unref()
  })
  try {
    return await Promise.race([promise.then(() => 'done' as const, () => 'failed' as const), late])
  } finally {
    clearTimeout(timer)
  }
}

const propagator = new W3CTraceContextPropagator()

function startRunTrace(tracer: Tracer, run: RunIdentity): RunTrace {
  const root = tracer.startSpan(
    `${OPERATION.invokeAgent} ${run.case_id}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        [ATTR.operationName]: OPERATION.invokeAgent,
        [ATTR.requestModel]: run.model,
        [OWN_ATTR.caseId]: run.case_id,
        [OWN_ATTR.promptName]: run.prompt_name,
        [OWN_ATTR.attempt]: run.attempt,
        [OWN_ATTR.index]: run.index
      }
    },
    ROOT_CONTEXT
  )
  const parent = trace.setSpan(ROOT_CONTEXT, root)
  // Calls on one session are sequential; a stack still keeps `meta` right if a wrapper nests one.
  const inFlight: Span[] = []
  let ended = false

  const child = (name: string, kind: SpanKind, attributes: Attributes) => tracer.startSpan(name, { kind, attributes }, parent)

  /** One MCP request in a CLIENT span, the current one while it is in flight; `settle` reads its answer. */
  const mcpRequest = async <R>(session: McpSession, name: string, attributes: Attributes, call: () => Promise<R>, settle: (span: Span, answer: R) => R): Promise<R> => {
    const version = session.protocolVersion
    const span = child(name, SpanKind.CLIENT, { ...attributes, [ATTR.operationName]: OPERATION.executeTool, ...(version ? { [ATTR.mcpProtocolVersion]: version } : {}) })
    inFlight.push(span)
    try {
      return settle(span, await call())
    } catch (error) {
      failed(span, errorType(error))
      throw error
    } finally {
      inFlight.splice(inFlight.lastIndexOf(span), 1)
      span.end()
    }
  }
  /** An outcome: an error when isError, Layer 2's doings as attributes, and the span's id on it. */
  const settleOutcome = (span: Span, outcome: CallOutcome): CallOutcome => {
    span.setAttributes(outcomeAttributes(outcome))
    if (outcome.isError) failed(span, TOOL_ERROR)
    return { ...outcome, annotations: { ...outcome.annotations, span_id: span.spanContext().spanId } }
  }
  /** A raw answer: a JSON-RPC error is an error of that code, an isError result a tool error. */
  const settleRaw = (span: Span, raw: RawToolCall): RawToolCall => {
    if (raw.response.kind === 'error') failed(span, String(raw.response.error.code))
    else if (raw.response.result.isError === true) failed(span, TOOL_ERROR)
    return raw
  }
  const tool = (name: string): Attributes => ({ [ATTR.mcpMethod]: 'tools/call', [ATTR.toolName]: name })

  return {
    traceId: root.spanContext().traceId,
    meta() {
      const carrier: Record<string, string> = {}
      propagator.inject(trace.setSpan(ROOT_CONTEXT, inFlight.at(-1) ?? root), carrier, defaultTextMapSetter)
      return carrier
    },
    session(session) {
      return wrapSession(session, {
        callTool: (name, args, signal) => mcpRequest(session, `tools/call ${name}`, tool(name), () => session.callTool(name, args, signal), settleOutcome),
        callToolRaw: (name, args, signal) => mcpRequest(session, `tools/call ${name}`, tool(name), () => session.callToolRaw(name, args, signal), settleRaw),
        readResource: (uri, signal) =>
          mcpRequest(session, 'resources/read', { [ATTR.mcpMethod]: 'resources/read', [ATTR.mcpResourceUri]: uri }, () => session.readResource(uri, signal), settleOutcome),
        getPrompt: (name, args, signal) =>
          mcpRequest(session, `prompts/get ${name}`, { [ATTR.mcpMethod]: 'prompts/get', [ATTR.promptName]: name }, () => session.getPrompt(name, args, signal), settleOutcome)
      })
    },
    chat(client) {
      return {
        async complete(request, signal) {
          const span = child(`${OPERATION.chat} ${request.model}`, SpanKind.CLIENT, {
            [ATTR.operationName]: OPERATION.chat,
            [ATTR.requestModel]: request.model,
            ...(request.temperature !== undefined ? { [ATTR.requestTemperature]: request.temperature } : {})
          })
          try {
            const response = await client.complete(request, signal)
            span.setAttributes({
              ...usageAttributes(response.usage),
              ...(response.finish_reason ? { [ATTR.finishReasons]: [response.finish_reason] } : {}),
              ...(response.cached ? { [OWN_ATTR.cached]: true } : {})
            })
            return response
          } catch (error) {
            failed(span, errorType(error))
            throw error
          } finally {
            span.end()
          }
        }
      }
    },
    async judge(model, judge) {
      const span = child(`judge ${model}`, SpanKind.INTERNAL, { [ATTR.requestModel]: model })
      try {
        const outcome = await judge()
        span.setAttributes({ ...usageAttributes(outcome.usage ?? null), ...(typeof outcome.score === 'number' ? { [ATTR.evaluationScore]: outcome.score } : {}) })
        if (outcome instanceof Error) failed(span, errorType(outcome))
        return outcome
      } catch (error) {
        failed(span, errorType(error))
        throw error
      } finally {
        span.end()
      }
    },
    end(status) {
      if (ended) return
      ended = true
      root.setAttribute(OWN_ATTR.status, status)
      if (status === 'error') root.setStatus({ code: SpanStatusCode.ERROR })
      root.end()
    }
  }
}

/** What Layer 2 did to a call, as attributes: the fault's kind and call, the attack's payload. */
function outcomeAttributes(outcome: CallOutcome): Attributes {
  const { fault, injected } = outcome.annotations ?? {}
  return {
    ...(fault ? { [OWN_ATTR.faultKind]: fault.kind, [OWN_ATTR.faultCall]: fault.call } : {}),
    ...(injected ? { [OWN_ATTR.attackPayload]: injected.payload } : {})
  }
}

function usageAttributes(usage: TokenUsage | null): Attributes {
  if (!usage) return {}
  return {
    [ATTR.inputTokens]: usage.prompt_tokens,
    [ATTR.outputTokens]: usage.completion_tokens,
    ...(usage.cost_usd !== undefined ? { [OWN_ATTR.costUsd]: usage.cost_usd } : {})
  }
}

/**
 * A span's error status, with `error.type` only: an error message can quote what a server or
 * model said, or a URL with a token in it, and spans leave this process.
 */
function failed(span: Span, type: string): void {
  span.setAttribute(ATTR.errorType, type)
  span.setStatus({ code: SpanStatusCode.ERROR, message: type })
}

/** The error's class name (`ServerError`, `APIConnectionError`, …), never its message. */
function errorType(error: unknown): string {
  return error instanceof Error ? error.name || 'Error' : '_OTHER'
}
