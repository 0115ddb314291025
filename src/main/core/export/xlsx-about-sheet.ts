import type { Worksheet } from 'exceljs'
import type { AboutLine } from './about-lines'
import { cleanCellText } from './cell-values'
import {
  ABOUT_DATE_TIME_STYLE,
  ABOUT_LABEL_STYLE,
  ABOUT_NUMBER_STYLE,
  ABOUT_VALUE_STYLE,
} from './xlsx-styles'

const MS_PER_DAY = 86_400_000
const EXCEL_EPOCH_OFFSET_DAYS = 25569

/** A moment as the clerk's wall-clock time in an Excel serial (cells have no time zone). */
function localSerial(date: Date): number {
  return (date.getTime() - date.getTimezoneOffset() * 60_000) / MS_PER_DAY + EXCEL_EPOCH_OFFSET_DAYS
}

/**
 * Fills and commits the "About this export" sheet: bold labels in column A, values in B typed as what they are
 * (times as real date-times in the clerk's local time, counts as numbers, the rest as text).
 */
export function writeAboutSheet(sheet: Worksheet, lines: ReadonlyArray<AboutLine>): void {
  sheet.columns = [{ width: 20 }, { width: 90 }]
  for (const line of lines) {
    const row = sheet.addRow([])
    const label = row.getCell(1)
    label.value = line.label
    label.style = ABOUT_LABEL_STYLE
    const value = row.getCell(2)
    if (line.value instanceof Date) {
      value.value = localSerial(line.value)
      value.style = ABOUT_DATE_TIME_STYLE
    } else if (typeof line.value === 'number') {
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
