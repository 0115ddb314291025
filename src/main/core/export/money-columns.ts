import type { EmployeeRow } from '../../../shared/domain/rows'
import { isMoneyField } from '../../../shared/money'
import type { ExportColumn } from './export-types'

/**
 * Which cells of an export are amounts of money (shared/money.ts, the one rule): a column's numbers by the
 * column's own field, or, for a column whose rows hold different fields (the change export's Before and After),
 * by the field each row names in `moneyFieldFrom`. Both writers ask it cell by cell.
 */
export class MoneyColumns {
  private readonly byKey: ReadonlyArray<boolean>
  private readonly from: ReadonlyArray<string | undefined>
  /** The rule's answer per field named in rows; a change export names a few fields over many rows. */
  private readonly named = new Map<string, boolean>()

  constructor(columns: ReadonlyArray<ExportColumn>) {
    this.byKey = columns.map((column) => isMoneyField(column.key))
    this.from = columns.map((column) => column.moneyFieldFrom)
  }

  /** Whether column `index`'s number in `row` is money (the caller has checked it is a finite number). */
  isMoney(index: number, row: EmployeeRow): boolean {
    const from = this.from[index]
    if (from === undefined) return this.byKey[index] === true
    const field = row[from]
    if (typeof field !== 'string') return false
    let money = this.named.get(field)
    if (money === undefined) {
      money = isMoneyField(field)
      this.named.set(field, money)
    }
    return money
  }
}
