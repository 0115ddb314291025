import type { RowQuery } from '../../../shared/domain/query'
import type { EmployeeRow } from '../../../shared/domain/rows'
import { chosenRows } from '../../../shared/export-rows'
import type { RowIterationOptions } from '../query/query-engine'
import type { ExportRowSource } from './export-types'

/** The part of the query engine an export reads through. */
export interface ExportQueries {
  count(query: RowQuery): number
  /**
   * The query's rows in its order, a batch at a time; `options` may narrow them to some UUIDs and say which
   * fields are read (an engine may ignore both: the export filters and picks fields itself).
   */
  iterateRows(
    query: RowQuery,
    batchSize?: number,
    options?: RowIterationOptions,
  ): Iterator<EmployeeRow[], void, undefined>
}

/** Rows per batch: the query engine reads each batch in a few statements, the writer yields between batches. */
export const EXPORT_BATCH_SIZE = 1000

/** What an export reads of each row: its columns' fields (the engine then parses no more than it must). */
export interface ExportReadOptions {
  readonly fields?: readonly string[]
}

/**
 * Every row a query matches, in the query's order, as an export row source. The engine keeps its snapshot
 * readable while the iteration runs, so a sync that commits mid-export does not change the file's rows; ending
 * the iteration early (cancel) releases it.
 */
export function queryRowSource(
  queries: ExportQueries,
  query: RowQuery,
  batchSize = EXPORT_BATCH_SIZE,
  read: ExportReadOptions & { readonly uuids?: readonly string[] } = {},
): ExportRowSource {
  const options: RowIterationOptions = {
    ...(read.fields === undefined ? {} : { fields: read.fields }),
    ...(read.uuids === undefined ? {} : { uuids: read.uuids }),
  }
  return {
    total: queries.count(query),
    async *batches() {
      const iterator = queries.iterateRows(query, batchSize, options)
      try {
        for (let next = iterator.next(); next.done !== true; next = iterator.next()) yield next.value
      } finally {
        // Closes the engine's generator (its finally releases the snapshot) when the export stops early.
        iterator.return?.()
      }
    },
  }
}

/**
 * "Export selected rows": the rows of the view's query whose UUID is among `uuids`, in the view's order (the order
 * the clerk chose them in). Reading the view once keeps one snapshot for the whole file, as every export does; an
 * employee a sync has since removed from the view is left out. `total` is the number asked for. The query engine
 * reads only the chosen rows; the filter here is the rule itself (`chosenRows`), so the UUID is always read.
 */
export function chosenRowSource(
  queries: ExportQueries,
  query: RowQuery,
  uuids: readonly string[],
  batchSize = EXPORT_BATCH_SIZE,
  read: ExportReadOptions = {},
): ExportRowSource {
  const wanted = new Set(uuids)
  const all = queryRowSource(queries, query, batchSize, {
    ...read,
    ...(read.fields === undefined ? {} : { fields: [...new Set(['UUID', ...read.fields])] }),
    uuids: [...wanted],
  })
  return {
    total: Math.min(wanted.size, all.total),
    async *batches() {
      let left = wanted.size
      for await (const batch of all.batches()) {
        const chosen = chosenRows(batch, wanted)
        left -= chosen.length
        if (chosen.length > 0) yield chosen
        // Ending early returns the view's iterator, which lets go of the snapshot.
        if (left <= 0) return
      }
    },
  }
}

/**
 * The first `limit` rows of `source`, in its order: a view or roster cut to what the machine policy allows in one
 * export (`firstRows`). Ending early returns the source's iterator, which lets go of its snapshot.
 */
export function firstRowsSource(source: ExportRowSource, limit: number): ExportRowSource {
  return {
    total: Math.min(source.total, limit),
    async *batches() {
      let left = limit
      for await (const batch of source.batches()) {
        const kept = batch.length <= left ? batch : batch.slice(0, left)
        left -= kept.length
        if (kept.length > 0) yield kept
        if (left <= 0) return
      }
    },
  }
}
