import type { EmployeeRow } from '../../../shared/domain'
import type { RowQuery } from '../query/query-engine'
import type { ExportRowSource } from './export-types'

/** The part of the query engine an export reads through. */
export interface ExportQueries {
  count(query: RowQuery): number
  iterateRows(query: RowQuery, batchSize?: number): Iterator<EmployeeRow[], void, undefined>
}

/** Rows per batch: the query engine reads each batch in one go, the writer yields between batches anyway. */
export const EXPORT_BATCH_SIZE = 1000

/**
 * Every row a query matches, in the query's order, as an export row source. The engine keeps its snapshot
 * readable while the iteration runs, so a sync that commits mid-export does not change the file's rows; ending
 * the iteration early (cancel) releases it.
 */
export function queryRowSource(
  queries: ExportQueries,
  query: RowQuery,
  batchSize = EXPORT_BATCH_SIZE,
): ExportRowSource {
  return {
    total: queries.count(query),
    async *batches() {
      const iterator = queries.iterateRows(query, batchSize)
      try {
        for (let next = iterator.next(); next.done !== true; next = iterator.next()) yield next.value
      } finally {
        // Closes the engine's generator (its finally releases the snapshot) when the export stops early.
        iterator.return?.()
      }
    },
  }
}
