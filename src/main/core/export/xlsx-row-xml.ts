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
  private readonly letters: ReadonlyArray<string>
  private readonly spans: string

  constructor(columnCount: number) {
    this.letters = Array.from({ length: columnCount }, (_, index) => columnLetter(index + 1))
    this.spans = `1:${columnCount}`
  }

  /** One `<row>`; `styleIds[i]` is the workbook style of `values[i]`, undefined values are left out. */
  row(
    rowNumber: number,
    values: ReadonlyArray<CellScalar | undefined>,
    styleIds: ReadonlyArray<number>,
  ): string {
    const r = String(rowNumber)
    let xml = `<row r="${r}" spans="${this.spans}">`
    for (let index = 0; index < this.letters.length; index++) {
      const value = values[index]
      if (value === undefined) continue
      const head = `<c r="${this.letters[index] as string}${r}" s="${styleIds[index] ?? 0}"`
      if (typeof value === 'string') {
        const space = needsPreserve(value) ? ' xml:space="preserve"' : ''
        xml += `${head} t="inlineStr"><is><t${space}>${escapeXmlText(value)}</t></is></c>`
      } else if (typeof value === 'number') {
        xml += `${head}><v>${value}</v></c>`
      } else {
        xml += `${head} t="b"><v>${value ? 1 : 0}</v></c>`
      }
    }
    return `${xml}</row>`
  }
}
