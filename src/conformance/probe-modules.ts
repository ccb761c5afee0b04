import type { ProbeContext } from './probe-context.js'
import type { ProbeData } from './probe-data.js'
import { probeAuth } from './probe-auth.js'
import { probeEras } from './probe-eras.js'
import { probeHeaderForms } from './probe-header-forms.js'
import { probeMrtr } from './probe-mrtr.js'
import { probeStreams } from './probe-streams.js'
import { probeTasks } from './probe-tasks.js'

/** The probe modules, in parallel, once the lists are known: each its own part of ProbeData (absent when it found nothing to probe). */
export async function probeModules(context: ProbeContext): Promise<Pick<ProbeData, 'eras' | 'mrtr' | 'streams' | 'tasks' | 'auth' | 'headerForms'>> {
  const [eras, mrtr, streams, tasks, auth, headerForms] = await Promise.all([
    probeEras(context),
    probeMrtr(context),
    probeStreams(context),
    probeTasks(context),
    probeAuth(context),
    probeHeaderForms(context)
  ])
  return {
    ...(eras ? { eras } : {}),
    ...(mrtr ? { mrtr } : {}),
    ...(streams ? { streams } : {}),
    ...(tasks ? { tasks } : {}),
    ...(auth ? { auth } : {}),
    ...(headerForms ? { headerForms } : {})
  }
}
