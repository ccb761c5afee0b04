import { useMemo, useRef, useState } from 'preact/hooks'
import { useReport } from './context.js'
import { buildMatrix, cellName, cellText, type MatrixRow } from './matrix-cells.js'

/**
 * The cases × models matrix: each cell a group's k/N with its mark (and "flaky" when its runs
 * disagree), a button that narrows the run list to that case and model and goes there. One
 * stop in the Tab order (roving tabindex): the arrow keys, Home and End move within it.
 */
export function MatrixTable() {
  const { doc, setFilter, go } = useReport()
  const matrix = useMemo(() => buildMatrix(doc.groups, doc.gate, doc.runs), [doc])
  const [active, setActive] = useState<[number, number]>(() => firstCell())
  const table = useRef<HTMLTableElement>(null)
  const { rows, models, severalPrompts } = matrix
  const has = (r: number, c: number) => r >= 0 && r < rows.length && c >= 0 && c < models.length && matrix.cell(rows[r], models[c]) !== null

  function firstCell(): [number, number] {
    for (let r = 0; r < matrix.rows.length; r++) for (let c = 0; c < matrix.models.length; c++) if (matrix.cell(matrix.rows[r], matrix.models[c])) return [r, c]
    return [0, 0]
  }

  /** The next cell with a group from (r, c) in the direction (dr, dc); the same cell when there is none. */
  function step(r: number, c: number, dr: number, dc: number): [number, number] {
    for (let nr = r + dr, nc = c + dc; nr >= 0 && nr < rows.length && nc >= 0 && nc < models.length; nr += dr, nc += dc) if (has(nr, nc)) return [nr, nc]
    return [r, c]
  }

  function move(to: [number, number]) {
    setActive(to)
    table.current?.querySelector<HTMLButtonElement>(`button[data-cell="${to[0]}-${to[1]}"]`)?.focus()
  }

  function onKeyDown(event: KeyboardEvent, r: number, c: number) {
    const last = (dr: number, dc: number): [number, number] => {
      let at: [number, number] = [r, c]
      for (let next = step(r, c, dr, dc); next[0] !== at[0] || next[1] !== at[1]; next = step(...next, dr, dc)) at = next
      return at
    }
    const moves: Record<string, () => [number, number]> = {
      ArrowRight: () => step(r, c, 0, 1),
      ArrowLeft: () => step(r, c, 0, -1),
      ArrowDown: () => step(r, c, 1, 0),
      ArrowUp: () => step(r, c, -1, 0),
      Home: () => (event.ctrlKey ? firstCell() : last(0, -1)),
      End: () => last(event.ctrlKey ? 1 : 0, event.ctrlKey ? 0 : 1)
    }
    const to = moves[event.key]
    if (!to) return
    event.preventDefault()
    move(to())
  }

  function open(row: MatrixRow, model: string) {
    setFilter({ case_id: row.case_id, model, prompt: row.prompt })
    go('runs')
  }

  if (rows.length === 0) return <p class="muted">No group ran.</p>
  const shownWords = new Set(rows.flatMap((row) => models.map((m) => matrix.cell(row, m)?.word)))
  const anyFlaky = rows.some((row) => models.some((m) => matrix.cell(row, m)?.flaky))
  return (
    <div class="matrix-wrap">
      <table class="matrix" role="grid" aria-labelledby="matrix-heading" aria-describedby="matrix-help" ref={table}>
        <thead>
          <tr>
            <th scope="col">Case</th>
            {models.map((m) => (
              <th scope="col" key={m}>
                <code>{m}</code>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={`${row.case_id}\u0000${row.prompt}`}>
              <th scope="row">
                <code>{row.case_id}</code>
                {severalPrompts && <span class="matrix-prompt"> · {row.prompt}</span>}
              </th>
              {models.map((model, c) => {
                const cell = matrix.cell(row, model)
                if (!cell) {
                  return (
                    <td key={model} class="matrix-empty">
                      <span aria-label="no group">—</span>
                    </td>
                  )
                }
                const isActive = active[0] === r && active[1] === c
                return (
                  <td key={model} class={`matrix-cell tone-${cell.tone}`}>
                    <button
                      type="button"
                      data-cell={`${r}-${c}`}
                      tabIndex={isActive ? 0 : -1}
                      aria-label={cellName(row, model, cell, severalPrompts)}
                      onClick={() => open(row, model)}
                      onFocus={() => setActive([r, c])}
                      onKeyDown={(e) => onKeyDown(e, r, c)}
                    >
                      <span aria-hidden="true">{cell.mark} </span>
                      {cellText(cell)}
                    </button>
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p id="matrix-help" class="muted matrix-legend">
        {[
          'k/N: runs of the group that passed',
          '✓ every run passed',
          shownWords.has('reached its floor') ? '◐ reached its pass floor' : '',
          shownWords.has('below its floor') ? '✗ below its pass floor' : '',
          shownWords.has('errored') ? '⚠ every run errored' : '',
          shownWords.has('cancelled') ? '⊘ cancelled' : '',
          shownWords.has('skipped: budget') ? '» skipped: budget (never started)' : '',
          anyFlaky ? 'flaky: some runs passed and some did not' : '',
          'a cell shows its runs below (arrow keys move between cells)'
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
    </div>
  )
}
