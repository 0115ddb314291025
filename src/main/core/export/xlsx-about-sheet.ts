import type { Worksheet } from 'exceljs'
import type { AboutLine } from './about-lines'
import { cleanCellText } from './cell-values'
import { ABOUT_LABEL_STYLE, ABOUT_NUMBER_STYLE, ABOUT_VALUE_STYLE } from './xlsx-styles'

/** Column widths in characters: the longest label ("Shortened cells") and a value column that wraps. */
export const ABOUT_LABEL_WIDTH = 18
export const ABOUT_VALUE_WIDTH = 72

/**
 * Fills and commits the "About this export" sheet: bold labels in column A, values in B typed as what they are
 * (counts as numbers, the rest as text; times are text naming their zone, which a date-time cell cannot hold).
 */
export function writeAboutSheet(sheet: Worksheet, lines: ReadonlyArray<AboutLine>): void {
  // Label and value together narrower than a portrait page (about 100 characters), so they never print on two
  // pages even where the page setup is ignored; long values wrap inside their cell.
  sheet.columns = [{ width: ABOUT_LABEL_WIDTH }, { width: ABOUT_VALUE_WIDTH }]
  for (const line of lines) {
    const row = sheet.addRow([])
    const label = row.getCell(1)
    label.value = line.label
    label.style = ABOUT_LABEL_STYLE
    const value = row.getCell(2)
    if (typeof line.value === 'number') {
      value.value = line.value
      value.style = ABOUT_NUMBER_STYLE
    } else {
      value.value = cleanCellText(line.value).text
      value.style = ABOUT_VALUE_STYLE
    }
    row.commit()
  }
  sheet.commit()
}
