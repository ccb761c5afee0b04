import type { ProbeContext } from './probe-context.js'
import type { TasksProbes } from './probe-tasks-data.js'

/** The tasks probe: the tasks extension, when the server declares it. Undefined when nothing applies. */
export async function probeTasks(context: ProbeContext): Promise<TasksProbes | undefined> {
  void context
  return undefined
}
