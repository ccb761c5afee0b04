import * as core from '@actions/core'
import { inertLine, inertMessage, inertText, inertTitle } from '../util/log-text.js'

/**
 * The action's one way to the log. Every line it prints may carry a server's, a provider's or a
 * model's text, so each goes through the neutraliser (util/log-text.ts) here, and only here:
 * core.info writes its text raw, so every line of it is made inert and cut to LOG_LINE_MAX; an
 * annotation's message and title are made inert and cut, then @actions/core encodes them into
 * the command we mean to emit (`::error title=…::…`), which the runner still takes. Only the
 * commands we issue ourselves (setOutput, setSecret) go to @actions/core as they are.
 */

type Annotate = (message: string, props?: core.AnnotationProperties) => void

/** An annotation: its message and title inert and cut, the rest of its properties as they are. */
function annotate(emit: Annotate, message: string, props: core.AnnotationProperties | undefined): void {
  if (!props) return emit(inertMessage(message))
  emit(inertMessage(message), props.title === undefined ? props : { ...props, title: inertTitle(props.title) })
}

export function info(message: string): void {
  core.info(inertText(message))
}

export function warning(message: string, props?: core.AnnotationProperties): void {
  annotate(core.warning, message, props)
}

export function error(message: string, props?: core.AnnotationProperties): void {
  annotate(core.error, message, props)
}

export function notice(message: string, props?: core.AnnotationProperties): void {
  annotate(core.notice, message, props)
}

/** The step fails with this message (an error annotation). */
export function setFailed(message: string): void {
  core.setFailed(inertMessage(message))
}

/**
 * Mask a secret, and the form a log line would show it in when the neutraliser changed it (a
 * `##[` inside it, a `::` it starts with): the runner masks exact strings.
 */
export function setSecret(secret: string): void {
  core.setSecret(secret)
  const shown = inertLine(secret)
  if (shown !== secret) core.setSecret(shown)
}

// The commands we issue ourselves, as @actions/core writes them: `import * as core from './log.js'` gives a file both.
export { setOutput, summary } from '@actions/core'
