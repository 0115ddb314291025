import type { ExportColumn } from './export-types'

/** Widths in Excel's units (about one average character each). */
const MIN_WIDTH = 6
const MAX_WIDTH = 60
/** Room for the filter drop-down button beside a header. */
const FILTER_BUTTON = 3
const DATE_CHARS = 10
const DATE_TIME_CHARS = 19
/** " UTC" after a date-time that named its zone. */
const UTC_MARK_CHARS = 4

/** Characters that take two columns in a spreadsheet font: CJK, Hangul, full-width forms and most emoji. */
const WIDE =
  /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|[\uD83C-\uD83E][\uDC00-\uDFFF]/g

/** How many average-character widths `text` needs: its longest line, wide characters counted twice. */
export function displayWidth(text: string): number {
  let longest = 0
  for (const line of text.split('\n')) {
    const wide = line.match(WIDE)?.length ?? 0
    // A surrogate-pair emoji is two UTF-16 units and was matched once: count it as two columns, not three.
    const pairs = line.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0
    longest = Math.max(longest, line.length - pairs + wide)
  }
  return longest
}

/** Collects the widest content of each column from a sample of rows, then sizes the columns from it. */
export class ColumnWidths {
  private readonly widest: number[]

  constructor(private readonly columns: ReadonlyArray<ExportColumn>) {
    this.widest = columns.map((column) => displayWidth(column.label) + FILTER_BUTTON)
  }

  observeText(index: number, text: string): void {
    // Skip measuring text that cannot widen the column any further.
    if (text.length * 2 <= (this.widest[index] ?? 0)) return
    this.observeChars(index, displayWidth(text))
  }

  observeDate(index: number, hasTime: boolean, utc = false): void {
    this.observeChars(index, hasTime ? DATE_TIME_CHARS + (utc ? UTC_MARK_CHARS : 0) : DATE_CHARS)
  }

  observeChars(index: number, chars: number): void {
    const current = this.widest[index]
    if (current !== undefined && chars > current) this.widest[index] = chars
  }

  /** One width per column, padded a little and kept between sensible bounds. */
  widths(): number[] {
    return this.columns.map((_column, index) => {
      const chars = this.widest[index] ?? MIN_WIDTH
      return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, chars + 2))
    })
  }
}
