import { createHash } from 'node:crypto'
import type { EmployeeRow } from '../../../shared/domain/rows'
import { cellText } from '../../../shared/cell-text'
import { canonicalLocale, FALLBACK_FORMAT_LOCALE, formatNumber } from '../../../shared/locale-format'
import { isMoneyField, rowCurrency } from '../../../shared/money'
import { PRINT_MAX_ROWS } from '../../../shared/print-limits'
import { aboutLines } from './about-lines'
import type { ExportAbout, ExportColumn } from './export-types'
import { formatZonedTime, localTimeZone } from './zoned-time'
import { fieldOf } from '../../../shared/row-field'
import { escapeHtml } from './html-text'

export { escapeHtml } from './html-text'

/**
 * The page "Print…" prints: the current view as one self-contained HTML document (no script, no image, no
 * request; its only style is inline and allowed by its hash), which the Electron shell loads in a hidden window
 * with JavaScript off and hands to the system print dialog.
 *
 * - Every piece of text is escaped, and each cell and fact is its own bidirectional paragraph
 *   (`unicode-bidi: plaintext`), so a name the service sent with markup or a right-to-left override stays text
 *   inside its own cell.
 * - `thead` repeats the column headers atop every printed page; `@page` asks for landscape and puts "Page 2 of 7"
 *   and the print time in the page's margin boxes.
 * - The rows are bounded (PRINT_MAX_ROWS): a print of a whole 100,000-employee cache is not a tidy table, and the
 *   page says how many it left out and points at the export.
 */

export { PRINT_MAX_ROWS }

export interface PrintPageInput {
  readonly about: ExportAbout
  readonly columns: ReadonlyArray<ExportColumn>
  /** The rows printed, in the view's order: at most PRINT_MAX_ROWS of them. */
  readonly rows: ReadonlyArray<EmployeeRow>
  /** Rows the view holds; more than `rows.length` when the page was cut at the bound. */
  readonly total: number
  /** The bound was the machine policy's `exports.maxRows` (which binds exports too), not the page's own. */
  readonly heldToPolicy?: boolean
  /**
   * The regional formats the clerk's screen shows (shared/locale-format.ts), which the cells' and the count's
   * numbers and dates follow: "58.234,50" and "27.11.2026" in de-DE. en-US when absent or not a locale.
   */
  readonly locale?: string
  /** The profile's currency setting: amounts whose row names no currency are written in it (shared/money.ts). */
  readonly currency?: string
}

/** A string inside a CSS string literal (`content: "…"`); `<` escaped too, so it can never close the <style>. */
function cssString(text: string): string {
  const escaped = text
    .replace(/[\\"]/g, (char) => `\\${char}`)
    .replace(/</g, '\\3c ')
    .replace(/[\r\n]/g, ' ')
  return `"${escaped}"`
}

/** The heading: what is printed. */
export function printTitle(about: Pick<ExportAbout, 'kind' | 'payCycleId'>): string {
  return about.kind === 'roster' && about.payCycleId !== undefined
    ? `Roster of pay cycle ${about.payCycleId}`
    : 'Employees'
}

/** The longest value without a space that is kept on one line. */
const NO_WRAP_MAX = 40

/** About-sheet lines the page does not repeat: what the table shows itself, or what concerns a file. */
const LINES_LEFT_OUT: ReadonlySet<string> = new Set([
  'Export',
  'Columns',
  'Rows',
  'Sheets',
  'Made with',
  'Times',
  'Shortened cells',
  'File made',
])

function styleSheet(printed: string): string {
  return `@page {
  size: landscape;
  margin: 12mm 10mm 14mm;
  @bottom-left { content: ${cssString(`RosterDesk · printed ${printed}`)}; font: 7.5pt sans-serif; color: #555; }
  @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 7.5pt sans-serif; color: #555; }
}
html { font: 8pt/1.25 "Segoe UI", "Helvetica Neue", Arial, "Noto Sans", "DejaVu Sans", sans-serif; color: #000; }
body { margin: 0; }
h1 { font-size: 13pt; margin: 0 0 4pt; }
.facts { display: grid; grid-template-columns: repeat(2, max-content minmax(0, 1fr)); gap: 1pt 8pt; margin: 0 0 6pt; }
.facts div { display: contents; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; unicode-bidi: plaintext; }
.count { margin: 0 0 6pt; }
.cut { border: 1pt solid #a15c00; padding: 3pt 5pt; }
table { border-collapse: collapse; width: 100%; }
thead { display: table-header-group; }
th { text-align: left; background: #eee; border-bottom: 1pt solid #777; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
th, td { padding: 1pt 4pt; vertical-align: top; overflow-wrap: break-word; }
td { border-bottom: 0.5pt solid #ccc; white-space: pre-line; unicode-bidi: plaintext; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.nw { white-space: nowrap; }
tr { break-inside: avoid; }
`
}

/** The whole document. */
export function printPageHtml(input: PrintPageInput): string {
  const { about, columns, rows, total } = input
  const locale = canonicalLocale(input.locale) ?? FALLBACK_FORMAT_LOCALE
  const count = (value: number): string => formatNumber(value, locale)
  const timeZone = about.timeZone ?? localTimeZone()
  const printed = formatZonedTime(about.createdAt, timeZone, locale)
  const css = styleSheet(printed)
  const hash = createHash('sha256').update(css, 'utf8').digest('base64')
  const title = printTitle(about)

  const facts = aboutLines(about, {
    rows: total,
    columnLabels: columns.map((column) => column.label),
    sheetNames: [],
    rowsPerSheet: total,
    truncatedCells: 0,
    convertedTimes: false,
    locale,
  })
    .filter((line) => !LINES_LEFT_OUT.has(line.label))
    .concat([{ label: 'Printed', value: printed }])
    .map((line) => `<div><dt>${escapeHtml(line.label)}</dt><dd>${escapeHtml(String(line.value))}</dd></div>`)
    .join('')

  const advice =
    input.heldToPolicy === true
      ? `Your organisation allows at most ${count(rows.length)} employees in one export or print; narrow the view to print the others.`
      : 'Narrow the view, or export it to Excel for all of them.'
  const counted =
    rows.length < total
      ? `<p class="count cut">Only the first ${count(rows.length)} of ${count(total)} employees are printed. ${advice}</p>`
      : `<p class="count">${count(total)} ${total === 1 ? 'employee' : 'employees'}</p>`

  const numeric = columns.map((column) => column.kind === 'number' || isMoneyField(column.key))
  const head = columns
    .map(
      (column, index) =>
        `<th scope="col"${numeric[index] === true ? ' class="num"' : ''}>${escapeHtml(column.label)}</th>`,
    )
    .join('')
  const body: string[] = []
  for (const row of rows) {
    // An amount is written in the currency its row names (`currency`, `currencyCode`), else the profile's, as on
    // screen.
    const currency = rowCurrency(row, input.currency)
    let cells = ''
    for (let index = 0; index < columns.length; index++) {
      const key = (columns[index] as ExportColumn).key
      const value = fieldOf(row, key)
      const text = cellText(value, key, locale, currency)
      const classes = [
        ...(typeof value === 'number' ? ['num'] : []),
        // A short value with no space (a date, a UUID, "PC-2026-11-A") never breaks at its hyphens: a column of them
        // stays one line high, and long text elsewhere takes the room it needs by wrapping instead.
        ...(text.length <= NO_WRAP_MAX && !/\s/.test(text) ? ['nw'] : []),
      ]
      cells += `<td${classes.length === 0 ? '' : ` class="${classes.join(' ')}"`}>${escapeHtml(text)}</td>`
    }
    body.push(`<tr>${cells}</tr>`)
  }

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-${hash}'">
<title>${escapeHtml(`${title} – RosterDesk`)}</title>
<style>${css}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<dl class="facts">${facts}</dl>
${counted}
<table>
<thead><tr>${head}</tr></thead>
<tbody>
${body.join('\n')}
</tbody>
</table>
</body>
</html>
`
}
