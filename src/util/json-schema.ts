import { Ajv } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Ajv2020 } from 'ajv/dist/2020.js'

type Validator = Ajv | Ajv2019 | Ajv2020
const validators = new Map<string, Validator>()

/**
 * One validator per JSON Schema dialect, made once (building one costs far more than compiling a
 * schema): 2020-12 when `$schema` names none, as MCP 2026-07-28 says; undefined for a dialect we
 * do not support. Remote `$ref`s are never fetched: no loader is configured.
 */
export function validatorFor(dialect: string): Validator | undefined {
  const key = dialect === '' || dialect.includes('2020-12') ? '2020-12' : dialect.includes('2019-09') ? '2019-09' : /draft-0[67]/.test(dialect) ? 'draft-07' : undefined
  if (!key) return undefined
  let ajv = validators.get(key)
  if (!ajv) {
    const options = { strict: false, validateFormats: false, allErrors: false }
    ajv = key === '2020-12' ? new Ajv2020(options) : key === '2019-09' ? new Ajv2019(options) : new Ajv(options)
    validators.set(key, ajv)
  }
  return ajv
}

export function dialectOf(schema: Record<string, unknown>): string {
  return typeof schema.$schema === 'string' ? schema.$schema : ''
}
