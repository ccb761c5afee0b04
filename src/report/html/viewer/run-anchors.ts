/** The run page's own anchors, under the run's: `#run-17-call-2` (the 1-based call, as the Markdown and the app render ids count), `#run-17-timeline`. */

export const callAnchor = (run: { index: number }, callIndex: number): string => `run-${run.index}-call-${callIndex + 1}`
export const runPartAnchor = (run: { index: number }, part: string): string => `run-${run.index}-${part}`
