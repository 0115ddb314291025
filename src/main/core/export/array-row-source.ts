import type { EmployeeRow } from '../../../shared/domain/rows'
import type { ExportRowSource } from './export-types'

/** A row source over rows already in memory, handed out in batches like a query would. */
export function arrayRowSource(rows: ReadonlyArray<EmployeeRow>, batchSize = 1000): ExportRowSource {
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new RangeError('batchSize must be a positive integer')
  return {
    total: rows.length,
    async *batches() {
      for (let start = 0; start < rows.length; start += batchSize) {
        yield rows.slice(start, start + batchSize)
      }
    },
  }
}
