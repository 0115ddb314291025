import type { ExportRequest } from './domain/export'
import type { RowQuery } from './domain/query'

/**
 * Which employees an export holds: a view's on-screen query as it stands; a roster's pay cycle, narrowed to the
 * statuses the clerk chose to apply (in a saved view's order when one is its template), and nothing else of the
 * screen (search text never narrows a roster).
 */
export function exportRowQuery(request: ExportRequest): RowQuery {
  if (request.kind === 'view') return request.query
  return {
    payCycleIds: [request.payCycleId],
    ...(request.statuses === undefined ? {} : { statuses: [...request.statuses] }),
    ...(request.sort === undefined ? {} : { sort: { ...request.sort } }),
  }
}

/**
 * "Export selected rows": of a batch of the view's rows (in the view's order), those the clerk chose, by UUID.
 * Main's export and the renderer tests' fake core both apply it.
 */
export function chosenRows<Row extends Readonly<Record<string, unknown>>>(
  rows: readonly Row[],
  uuids: ReadonlySet<string>,
): Row[] {
  return rows.filter((row) => {
    const uuid = row['UUID']
    return typeof uuid === 'string' && uuids.has(uuid)
  })
}
