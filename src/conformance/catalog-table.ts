import { CATALOG } from './catalog.js'
import type { Catalog } from './catalog-types.js'

/** Where docs/conformance.md holds the table, so it can be compared and regenerated. */
export const TABLE_START = '<!-- check catalog: generated from src/conformance/catalog.ts; UPDATE_GOLDEN=1 npm test -- conformance-catalog regenerates -->'
export const TABLE_END = '<!-- end of the check catalog -->'

const SCORING: Record<Catalog[string]['official']['scoring'], string> = {
  scored: 'scored the same',
  differs: 'scored differently',
  unscored: 'run, not scored',
  none: 'no check'
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The docs page's table: every check id, its revision, the official scenarios, how they score it, and a note; by id. */
export function catalogTable(catalog: Catalog = CATALOG): string[] {
  const rows = Object.entries(catalog)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, { revision, official }]) => {
      const scenarios = official.scenarios.length ? official.scenarios.map((s) => `\`${s}\``).join(', ') : '—'
      return `| \`${id}\` | ${revision} | ${scenarios} | ${SCORING[official.scoring]} | ${cell(official.note ?? '')} |`
    })
  return [TABLE_START, '| id | revision | official scenario (`scenario:check`) | official scoring | note |', '| --- | --- | --- | --- | --- |', ...rows, TABLE_END]
}
