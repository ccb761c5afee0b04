import type { Json } from '../config/types.js'

/** A path into a document: keys and indexes. */
export type Path = (string | number)[]

/** A JSON object, as a converter builds its output. */
export type JsonObject = { [key: string]: Json }

/**
 * One thing a conversion says: `from` is where it is in the input (`flows[0].checks[1].assert[2]
 * (kind: resource)`), `at` where its comment goes in the output (the node it belongs to, or where
 * the dropped item would have been), `text` what it says. A loss (`lost: true`) is also a line
 * on stderr; a remark (a difference in meaning, a hint) is only a comment.
 */
export interface Note {
  from: string
  at: Path
  text: string
  lost: boolean
}

/** Where a conversion's notes are collected. */
export class Notes {
  readonly all: Note[] = []

  /** Something the input says that the output format has no counterpart for. */
  lost(from: string, at: Path, text: string): void {
    this.all.push({ from, at, text, lost: true })
  }

  /** A remark at its place in the output (a difference in meaning, or what to do instead). */
  remark(from: string, at: Path, text: string): void {
    this.all.push({ from, at, text, lost: false })
  }

  /** The stderr lines: one per loss, `<from>: <text>`. */
  lossLines(): string[] {
    return this.all.filter((n) => n.lost).map(line)
  }
}

/** A note as one line: where it is in the input, and what it says. */
export function line(note: Note): string {
  return note.from === '' ? note.text : `${note.from}: ${note.text}`
}
