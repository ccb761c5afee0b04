import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderNotDone, type AppRenderer } from '../execute/app-host.js'
import type { WidgetScreens } from '../scoring/evals-v1-turn.js'
import { suiteRendersInRuns } from './needs.js'
import type { AppJudgeFn } from './types.js'
import type { Json, Suite } from '../config/types.js'
import type { LayerRun, RunLayer } from '../execute/run-layer.js'
import type { McpSession } from '../mcp/session.js'
import { wrapSession } from '../mcp/wrap-session.js'
import type { RunSpec } from '../plan/expand.js'
import { appRenderFailed, type AppRender } from '../results/apps.js'

/**
 * MCP Apps in behaviour runs and conversations (`apps: render`): after each tool call whose tool
 * links a `ui://` resource, the view is rendered in the browser host with the call's arguments
 * and the result the server sent, on the run's own session (the view's tools/call and
 * resources/read go to the same server). It sits just outside observed conformance, so it sees
 * the server's real answer, and a fault that replaces an answer leaves nothing to render.
 *
 * The call returns as soon as the server answered (the model's next step overlaps the render);
 * the session is busy until the render is done: the next request on it, and the end of the run
 * (`idle`), wait for it, so the view's own requests never interleave with the agent's.
 */
export function appsRunLayer(renderer: AppRenderer, renders: (spec: RunSpec) => boolean): AppsRunLayer {
  // Every screenshot this layer's renders took, by render id: what the evals/v1 widget screenshots judge.
  const screenshots = new Map<string, string>()
  const kept: AppRenderer = {
    async render(request) {
      const render = await renderer.render(request)
      if (render.screenshot) screenshots.set(render.id, render.screenshot)
      return render
    }
  }
  return {
    name: 'apps',
    prepare(spec) {
      if (!renders(spec)) return { record: () => ({ fields: {}, passed: true }) }
      return rendersOfRun(spec, kept)
    },
    screenshotOf: (id) => screenshots.get(id) ?? null
  }
}

/** The apps run layer, and the screenshots its renders took in this evaluation. */
export interface AppsRunLayer extends RunLayer {
  /** The screenshot of a render this layer made (relative to the output directory), or null (none was taken, or the id is not its). */
  screenshotOf(renderId: string): string | null
}

/** The screenshots the runs' renders took (under the output directory `root`), read by render id, and the vision judge, for the evals/v1 widget screenshots. */
export function appScreensOf(root: string, layer: AppsRunLayer, judge: AppJudgeFn | undefined): Omit<WidgetScreens, 'signal'> {
  return {
    screenshotOf(renderId) {
      const path = layer.screenshotOf(renderId)
      if (!path) return null
      try {
        return readFileSync(join(root, path))
      } catch {
        return null
      }
    },
    ...(judge ? { judge } : {})
  }
}

/** The apps layer of a suite's runs, or null when no case renders apps (or there is no host: the suite renders none). */
export function appsRunLayerFor(suite: Pick<Suite, 'apps' | 'cases'>, renderer: AppRenderer | null): AppsRunLayer | null {
  if (!renderer || !suiteRendersInRuns(suite)) return null
  const suiteRenders = suite.apps?.render ?? false
  return appsRunLayer(renderer, (spec) => caseRendersApps(spec, suiteRenders))
}

/** Whether a run's case renders apps: the case's `apps:` when it says, else the suite's `apps: render`. */
export function caseRendersApps(spec: Pick<RunSpec, 'case'>, suiteRenders: boolean): boolean {
  return spec.case.apps ? spec.case.apps === 'render' : suiteRenders
}

/** The render id of the k-th view of a run (1-based): names its screenshot, the same in every run of the suite that calls alike. */
export function runRenderId(runIndex: number, k: number): string {
  return `run-${runIndex}.view-${k}`
}

function rendersOfRun(spec: RunSpec, renderer: AppRenderer): LayerRun {
  const made: AppRender[] = []
  // The renders still going, in order; never rejects (a render's failure is its record).
  let busy: Promise<void> = Promise.resolve()
  const idle = () => busy
  return {
    wrap(session: McpSession) {
      const after = async <T>(request: () => Promise<T>): Promise<T> => {
        await busy
        return request()
      }
      return wrapSession(session, {
        async callTool(name, args, signal) {
          await busy
          const outcome = await session.callTool(name, args, signal)
          const tool = session.tools.find((t) => t.name === name)
          // Nothing to show: no view linked, no result (a JSON-RPC error, a failed call), or the run is over.
          if (!tool?.ui?.resource_uri || !outcome.result || signal.aborted) return outcome
          const id = runRenderId(spec.index, made.length + 1)
          const slot = made.length
          // A render not yet back when the run ended (it should not happen: the run waits for it) says so.
          made.push(renderNotDone({ id, tool, call_index: 0 }, 'error', 'the run ended before the view was rendered'))
          busy = renderer
            .render({ id, tool, call_index: 0, args: args as Record<string, Json>, result: outcome.result, session, signal })
            .then((render) => void (made[slot] = render))
          return { ...outcome, annotations: { ...outcome.annotations, app_render: id } }
        },
        callToolRaw: (name, args, signal) => after(() => session.callToolRaw(name, args, signal)),
        readResource: (uri, signal) => after(() => session.readResource(uri, signal)),
        getPrompt: (name, args, signal) => after(() => session.getPrompt(name, args, signal)),
        idle
      })
    },
    record(run) {
      // Each render next to the call that opened it: its index in the run's record (1-based).
      const renders = made.map((render) => ({ ...render, call_index: run.tool_calls.findIndex((c) => c.app_render === render.id) + 1 }))
      if (renders.length === 0) return { fields: {}, passed: true }
      return { fields: { app_renders: renders }, passed: !renders.some(appRenderFailed) }
    }
  }
}
