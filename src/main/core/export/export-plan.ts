import { columnListProblem, quotedColumnName } from '../../../shared/column-names'
import { exportRequestSchema } from '../../../shared/domain/export'
import { exportRowQuery } from '../../../shared/export-rows'
import type { ExportRequest } from '../../../shared/domain/export'
import type { RowQuery } from '../../../shared/domain/query'
import type { ColumnInfo } from '../../../shared/domain/rows'
import { RosterDeskError } from '../errors'
import { columnLabel } from '../columns/column-label'
import type { ExportAbout, ExportColumn } from './export-types'

/** The parts of the About sheet that follow from the request alone. */
export type RequestAbout = Pick<
  ExportAbout,
  'kind' | 'payCycleId' | 'search' | 'statuses' | 'payCycleIds' | 'sort' | 'chosenRows' | 'firstRows'
>

/** What a request means for the cache: which rows, which columns, and how to describe them. */
export interface ExportPlan {
  readonly query: RowQuery
  readonly columns: ReadonlyArray<ExportColumn>
  readonly about: RequestAbout
  /** "Export selected rows": only these employees of the query's rows. */
  readonly uuids?: readonly string[]
  /** Only the first rows, in the query's order (the request's `firstRows`). */
  readonly firstRows?: number
}

/**
 * Checks an export request built outside the IPC contract (the CLI's options) against the contract's schema, as
 * `dispatchInvoke` checks `export:start` and `export:print`: requests are checked once, where they come in, and
 * planned and written as given after that. Columns over a real limit (too many for a spreadsheet, a name too long
 * for a cell) are refused saying the limit and the number asked.
 */
export function checkExportRequest(input: ExportRequest): ExportRequest {
  const columnsProblem = columnListProblem(input.columns)
  if (columnsProblem !== undefined) throw new RosterDeskError('validation', columnsProblem)
  const parsed = exportRequestSchema.safeParse(input)
  if (!parsed.success) {
    throw new RosterDeskError(
      'validation',
      'The export request is not valid. Choose the rows and columns again.',
      {
        detail: parsed.error.issues[0]?.message,
      },
    )
  }
  return parsed.data
}

/**
 * Turns an export request (checked where it came in: the IPC contract, or `checkExportRequest`) into a query and
 * the columns to write, in the clerk's order. A column the cache does not know is refused (the clerk chose from a
 * stale list); a repeated one is written once.
 */
export function planExport(request: ExportRequest, available: ReadonlyArray<ColumnInfo>): ExportPlan {
  const plan = planRows(request, available)
  const firstRows = request.firstRows
  if (firstRows === undefined) return plan
  return { ...plan, about: { ...plan.about, firstRows }, firstRows }
}

function planRows(request: ExportRequest, available: ReadonlyArray<ColumnInfo>): ExportPlan {
  const byKey = new Map(available.map((column) => [column.key, column]))
  const columns: ExportColumn[] = []
  const seen = new Set<string>()
  for (const key of request.columns) {
    if (seen.has(key)) continue
    seen.add(key)
    const info = byKey.get(key)
    if (info === undefined) {
      throw new RosterDeskError(
        'validation',
        `The column ${quotedColumnName(key)} is not in the employee data any more. Choose the columns again and export.`,
      )
    }
    columns.push({ key, label: columnLabel(key), kind: info.kind })
  }

  if (request.kind === 'roster') {
    const statuses = request.statuses
    return {
      query: exportRowQuery(request),
      columns,
      about: {
        kind: 'roster',
        payCycleId: request.payCycleId,
        ...(statuses === undefined ? {} : { statuses }),
        ...(request.sort === undefined
          ? {}
          : { sort: { columnLabel: columnLabel(request.sort.column), order: request.sort.order } }),
      },
    }
  }
  const query = exportRowQuery(request)
  const search =
    query.text === undefined || query.text.trim() === ''
      ? undefined
      : {
          text: query.text,
          ...(query.column === undefined ? {} : { columnLabel: columnLabel(query.column) }),
        }
  const about: RequestAbout = {
    kind: 'view',
    ...(search === undefined ? {} : { search }),
    ...(query.statuses === undefined ? {} : { statuses: query.statuses }),
    ...(query.payCycleIds === undefined ? {} : { payCycleIds: query.payCycleIds }),
    ...(query.sort === undefined
      ? {}
      : { sort: { columnLabel: columnLabel(query.sort.column), order: query.sort.order } }),
  }
  if (request.uuids !== undefined) {
    return { query, columns, about: { ...about, chosenRows: request.uuids.length }, uuids: request.uuids }
  }
  return { query, columns, about }
}
