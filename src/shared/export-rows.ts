import type { EmployeeQuery, ExportRequest } from './domain'

/** The filters of an employees query: everything but the window. */
export type ExportRowQuery = Omit<EmployeeQuery, 'offset' | 'limit' | 'facets'>

/**
 * Which employees an export holds: a view's on-screen query as it stands; a roster's pay cycle, narrowed to the
 * statuses the clerk chose to apply, and nothing else of the screen (search text never narrows a roster).
 */
export function exportRowQuery(request: ExportRequest): ExportRowQuery {
  if (request.kind === 'view') return request.query
  return {
    payCycleIds: [request.payCycleId],
    ...(request.statuses === undefined ? {} : { statuses: [...request.statuses] }),
  }
}
