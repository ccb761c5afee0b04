import type { ProbeData } from '../probe-data.js'
import type { CheckResult } from '../types.js'
import { checkAuth } from './auth.js'
import { checkEras } from './eras.js'
import { checkHeaderForms } from './header-forms.js'
import { checkMrtr } from './mrtr.js'
import { checkResourceErrors } from './resource-errors.js'
import { checkStreams } from './streams.js'
import { checkTasks } from './tasks.js'
import { checkWireSchema } from './wire-schema.js'

/** The probe modules' checks, for either era (each says itself when it does not apply), in report order. */
export function checkModules(probe: ProbeData): CheckResult[] {
  return [
    ...checkEras(probe),
    ...checkMrtr(probe),
    ...checkStreams(probe),
    ...checkTasks(probe),
    ...checkAuth(probe),
    ...checkWireSchema(probe),
    ...checkResourceErrors(probe),
    ...checkHeaderForms(probe)
  ]
}
