import { codeHtml } from './escape.js'

/**
 * A model id as HTML code for a narrow column: broken after its provider ("openai/" above
 * "gpt-4o-mini"), where a reader expects the break, since a code span does not wrap.
 */
export function modelIdHtml(model: string): string {
  const slash = model.indexOf('/')
  if (slash < 0 || slash === model.length - 1) return `${codeHtml(model)}`
  return `${codeHtml(model.slice(0, slash + 1))}<br>${codeHtml(model.slice(slash + 1))}`
}
