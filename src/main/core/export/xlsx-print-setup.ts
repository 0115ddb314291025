import type { HeaderFooter, PageSetup } from 'exceljs'
import type { ExportAbout } from './export-types'
import { formatZonedTime, localTimeZone } from './zoned-time'

/**
 * How every sheet of an export prints, so a manager who presses Print gets a readable document rather than 30
 * pages in three vertical strips: landscape, all columns on one page's width (as many pages down as the rows
 * need), the header row repeated on every page (a `_xlnm.Print_Titles` name, see printTitlesName) and a footer
 * naming the export's date and "Page 3 of 12".
 */

/** Margins in inches: narrower than Excel's default 0.7 so more columns keep a legible size. */
const MARGINS = { left: 0.4, right: 0.4, top: 0.5, bottom: 0.6, header: 0.25, footer: 0.25 }

/** Excel's footer codes: &L/&C/&R start a section, &P is the page, &N the page count, &A the sheet's name. */
const PAGE_OF_PAGES = 'Page &P of &N'
/** Excel refuses a header or footer longer than 255 characters. */
const FOOTER_MAX = 255

/** Text shown literally in a header or footer: `&` starts a code, so a literal one is doubled. */
export function footerText(text: string): string {
  return text.replace(/&/g, '&&')
}

/** The page setup of every sheet (exceljs's worksheet option; the streaming writer writes it as given). */
export function sheetPageSetup(): Partial<PageSetup> {
  return {
    orientation: 'landscape',
    // fitToWidth 1 with fitToHeight 0: one page wide, as many pages tall as needed (0 = "automatic").
    fitToPage: true,
    fitToWidth: 1,
    fitToHeight: 0,
    margins: MARGINS,
  }
}

/** The footer of every sheet: the export's date on the left, page numbers in the middle, the sheet on the right. */
export function sheetHeaderFooter(about: Pick<ExportAbout, 'createdAt' | 'timeZone'>): Partial<HeaderFooter> {
  const made = formatZonedTime(about.createdAt, about.timeZone ?? localTimeZone())
  const footer = `&L${footerText(`Exported ${made}`)}&C${PAGE_OF_PAGES}&R&A`
  return { oddFooter: footer.length <= FOOTER_MAX ? footer : `&C${PAGE_OF_PAGES}` }
}

/** A sheet name as a formula writes it: quoted, its quotes doubled (`'O''Brien roster'`). */
export function quotedSheetName(name: string): string {
  return `'${name.replace(/'/g, "''")}'`
}

/**
 * The range of a sheet's repeated print rows (row 1, the header). exceljs can write this itself from
 * `pageSetup.printTitlesRow`, but without doubling a quote in the sheet name, so a roster named after a pay cycle
 * like "O'Brien" would break the workbook; the writer adds the name with its filter names instead.
 */
export function printTitlesRange(sheetName: string): string {
  return `${quotedSheetName(sheetName)}!$1:$1`
}
