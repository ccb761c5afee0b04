/**
 * eval-report.md marks a skipped run or check ⏭, which the fonts of a headless Chromium (CI, the
 * screenshots) lack: the page shows » instead. Every other mark is the Markdown's.
 */
export const SKIPPED_MARK = '»'

export const pageMark = (mark: string): string => (mark === '⏭' ? SKIPPED_MARK : mark)
