import { once } from 'node:events'
import type { Writable } from 'node:stream'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { EmployeeRow, JsonValue } from '../../../shared/domain/rows'
import { moneyCsvText } from '../../../shared/money'
import { CSV_BOM, CSV_EOL, csvField, csvLine } from './csv-format'
import { RosterDeskError } from '../errors'
import type { ExportColumn } from './export-types'
import type { Checkpoint, FormatWriter } from './format-writer'
import { MoneyColumns } from './money-columns'
import { fieldOf } from '../../../shared/row-field'

export interface CsvWriterOptions {
  readonly out: Writable
  readonly columns: ReadonlyArray<ExportColumn>
  readonly checkpoint: Checkpoint
}

/** Rows per written chunk and per event-loop turn. */
const ROWS_PER_CHUNK = 500

/**
 * Writes UTF-8 CSV with a byte order mark and the same header text as the XLSX. Values are written as the
 * service sent them (dates stay ISO text, which every spreadsheet recognises); only formula-looking text is
 * neutralised (see csvField), and amounts of money get two decimals (shared/money.ts). One file, however many
 * rows: CSV has no sheet limit.
 */
export class CsvWriter implements FormatWriter {
  private readonly keys: ReadonlyArray<string>
  /** Which numbers are money (shared/money.ts), written with two decimals. */
  private readonly money: MoneyColumns
  private started = false

  constructor(private readonly options: CsvWriterOptions) {
    this.keys = options.columns.map((column) => column.key)
    this.money = new MoneyColumns(options.columns)
  }

  async writeBatch(rows: ReadonlyArray<EmployeeRow>): Promise<void> {
    if (!this.started) await this.writeHeader()
    const keys = this.keys
    for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
      let chunk = ''
      const end = Math.min(rows.length, start + ROWS_PER_CHUNK)
      for (let index = start; index < end; index++) {
        const row = rows[index] as EmployeeRow
        let line = ''
        for (let column = 0; column < keys.length; column++) {
          if (column > 0) line += ','
          const value = fieldOf(row, keys[column] as string)
          // An amount as "58234.50": still a number to a spreadsheet, with the two places the app shows.
          line +=
            typeof value === 'number' && Number.isFinite(value) && this.money.isMoney(column, row)
              ? moneyCsvText(value)
              : csvField(value)
        }
        chunk += line + CSV_EOL
      }
      await this.write(chunk)
      await nextTurn()
      this.options.checkpoint()
    }
  }

  nextSection(): Promise<void> {
    // One header per file: a CSV of several lists joins them into one first (with a column saying which).
    return Promise.reject(new RosterDeskError('internal', 'A CSV export holds one list.'))
  }

  async finish(): Promise<{ readonly sheets: number }> {
    if (!this.started) await this.writeHeader()
    this.options.checkpoint()
    const out = this.options.out
    out.end()
    if (!out.writableFinished) await once(out, 'finish')
    return { sheets: 1 }
  }

  abort(): void {
    // Nothing is queued outside the output stream, which the engine destroys.
  }

  private async writeHeader(): Promise<void> {
    this.started = true
    const labels: JsonValue[] = this.options.columns.map((column) => column.label)
    await this.write(CSV_BOM + csvLine(labels))
  }

  /** Honours the file stream's back-pressure so a slow disk cannot make memory grow. */
  private async write(chunk: string): Promise<void> {
    const out = this.options.out
    if (out.write(chunk, 'utf8')) return
    try {
      await once(out, 'drain')
    } catch (error) {
      // The stream failed while we waited: the checkpoint turns that into the clerk's storage error.
      this.options.checkpoint()
      throw error
    }
  }
}
