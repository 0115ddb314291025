import { EXCEL_MAX_CELL_CHARS } from './cell-values'
import { columnLetter } from './column-letter'

/** A cell value as the XLSX writer holds it: text, a number (dates are serial numbers) or a boolean. */
export type CellScalar = string | number | boolean

const XML_SPECIAL = /[&<>]/
const XML_SPECIAL_GLOBAL = /[&<>]/g
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }

/** Escapes text for an XML element's content (quotes need no escaping there). */
export function escapeXmlText(text: string): string {
  return XML_SPECIAL.test(text) ? text.replace(XML_SPECIAL_GLOBAL, (char) => ESCAPES[char] ?? char) : text
}

/** Whether an XML reader would trim or fold the text's edges unless told to preserve them. */
function needsPreserve(text: string): boolean {
  const first = text.charCodeAt(0)
  const last = text.charCodeAt(text.length - 1)
  return first <= 32 || last <= 32
}

/**
 * Characters some step would change: cleanCellText's (control characters but tab and line feed, DEL, surrogate
 * halves, U+FFFE/U+FFFF; a surrogate pair is sent the careful way too) and escapeXmlText's (&, <, >).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const NOT_PLAIN = /[\u0000-\u0008\u000B-\u001F\u007F\uD800-\uDFFF\uFFFE\uFFFF&<>]/

/**
 * Text that goes into a cell exactly as it is: cleanCellText would not change it, escapeXmlText neither, and no
 * white space at either end needs preserving. Most cells of an export are such text, recognised by one scan
 * instead of cleaning, escaping and checking each (test/unit/main/core/export/xlsx-row-xml.test.ts holds the three to it).
 */
export function isPlainXmlText(text: string): boolean {
  return (
    text.length <= EXCEL_MAX_CELL_CHARS &&
    text.charCodeAt(0) > 32 &&
    text.charCodeAt(text.length - 1) > 32 &&
    !NOT_PLAIN.test(text)
  )
}

/**
 * SpreadsheetML for data rows, written straight into exceljs's worksheet stream (see exceljs-internals).
 *
 * Why: with shared styles, what remains of exceljs's streaming cost is building a Row and a Cell object per
 * value and rendering them through its generic XML writer; a profile of 100,000 rows showed that at ~3 s of
 * ~4 s. Data rows are the one uniform, hot part of the file, so they are rendered here with plain string
 * concatenation; exceljs still writes everything else (header, columns, views, filter, styles, the package).
 * Text is an inline string (`t="inlineStr"`), the cell type ECMA-376 defines for literal text, so nothing in it
 * can be read as a formula. Callers pass text already cleaned of characters XML cannot carry (cleanCellText).
 */
export class RowXmlBuilder {
  /** Per column, a cell's start up to its row number: `<c r="B`. */
  private readonly cellStarts: ReadonlyArray<string>
  private readonly rowHeadEnd: string
  /**
   * Per style id, what follows a cell's row number for each kind of value (`" s="3" t="inlineStr"><is><t>`),
   * made once: a row is then a few pieces per cell, which is cheaper to join and encode (a quarter less time).
   */
  private readonly heads: CellHeads[] = []

  constructor(columnCount: number) {
    this.cellStarts = Array.from({ length: columnCount }, (_, index) => `<c r="${columnLetter(index + 1)}`)
    this.rowHeadEnd = `" spans="1:${columnCount}">`
  }

  /**
   * One `<row>`; `styleIds[i]` is the workbook style of `values[i]`, undefined values are left out. `plain[i]`
   * true says text `values[i]` is plain (isPlainXmlText), so it is written without looking at it again.
   */
  row(
    rowNumber: number,
    values: ReadonlyArray<CellScalar | undefined>,
    styleIds: ReadonlyArray<number>,
    plain?: ReadonlyArray<boolean>,
  ): string {
    const r = String(rowNumber)
    let xml = '<row r="' + r + this.rowHeadEnd
    for (let index = 0; index < this.cellStarts.length; index++) {
      const value = values[index]
      if (value === undefined) continue
      const heads = this.headsOf(styleIds[index] ?? 0)
      const start = (this.cellStarts[index] as string) + r
      if (typeof value === 'string') {
        if (plain?.[index] === true) xml += start + heads.text + value + TEXT_END
        else
          xml +=
            start +
            (needsPreserve(value) ? heads.preservedText : heads.text) +
            escapeXmlText(value) +
            TEXT_END
      } else if (typeof value === 'number') {
        xml += start + heads.value + String(value) + VALUE_END
      } else {
        xml += start + heads.boolean + (value ? '1' : '0') + VALUE_END
      }
    }
    return xml + '</row>'
  }

  private headsOf(styleId: number): CellHeads {
    let heads = this.heads[styleId]
    if (heads === undefined) {
      const s = `" s="${styleId}"`
      heads = {
        text: `${s} t="inlineStr"><is><t>`,
        preservedText: `${s} t="inlineStr"><is><t xml:space="preserve">`,
        value: `${s}><v>`,
        boolean: `${s} t="b"><v>`,
      }
      this.heads[styleId] = heads
    }
    return heads
  }
}

/** What follows a cell's reference, by kind of value, for one style. */
interface CellHeads {
  readonly text: string
  readonly preservedText: string
  readonly value: string
  readonly boolean: string
}

const TEXT_END = '</t></is></c>'
const VALUE_END = '</v></c>'
