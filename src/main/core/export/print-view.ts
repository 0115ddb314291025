import type { ColumnInfo, EmployeeRow, ExportRequest } from '../../../shared/domain'
import type { ExportContext } from './export-service'
import { planExport } from './export-plan'
import type { ExportQueries } from './export-query-source'
import type { ExportAbout } from './export-types'
import { PRINT_MAX_ROWS, printPageHtml, printTitle } from './print-page'

/** How a print ended: the clerk printed (or saved a PDF) or closed the dialog. */
export type PrintOutcome = 'printed' | 'cancelled'

/**
 * Prints a generated page (the Electron shell: a hidden, sandboxed window with JavaScript off, and the system
 * print dialog). Passed to the core, so the channel's handler is tested without Electron. Rejects when printing
 * failed for another reason than the clerk cancelling.
 */
export type PagePrinter = (page: { readonly html: string; readonly title: string }) => Promise<PrintOutcome>

/** A page ready to print, and what it holds. */
export interface PrintView {
  readonly html: string
  readonly title: string
  /** Rows on the page. */
  readonly rows: number
  /** Rows the view holds (more than `rows` when the page was cut at the bound). */
  readonly total: number
}

export interface PrintViewOptions {
  readonly request: ExportRequest
  readonly queries: ExportQueries & { listColumns(): ColumnInfo[] }
  readonly context: ExportContext
  readonly createdAt: Date
  readonly maxRows?: number
  /** The IANA zone the page's times are written in; the computer's when absent. */
  readonly timeZone?: string
}

/**
 * The page for an export request: the same rows, order and columns the export would write (planExport), up to
 * `maxRows`, headed by the same facts as the About sheet.
 */
export function buildPrintView(options: PrintViewOptions): PrintView {
  const { context } = options
  const plan = planExport(options.request, options.queries.listColumns())
  const maxRows = options.maxRows ?? PRINT_MAX_ROWS
  const total = options.queries.count(plan.query)
  const rows: EmployeeRow[] = []
  const iterator = options.queries.iterateRows(plan.query, Math.min(1000, Math.max(1, maxRows)))
  try {
    for (let next = iterator.next(); next.done !== true && rows.length < maxRows; next = iterator.next()) {
      for (const row of next.value) {
        if (rows.length === maxRows) break
        rows.push(row)
      }
    }
  } finally {
    // Lets the engine release the snapshot it held for the iteration.
    iterator.return?.()
  }
  const about: ExportAbout = {
    ...plan.about,
    ...(context.profile === undefined ? {} : { profile: context.profile }),
    environment: context.environment,
    tenantId: context.tenantId,
    syncedAt: context.syncedAt,
    ...(context.statusFilter === undefined ? {} : { statusFilter: context.statusFilter }),
    createdAt: options.createdAt,
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
  }
  return {
    html: printPageHtml({ about, columns: plan.columns, rows, total }),
    title: printTitle(about),
    rows: rows.length,
    total,
  }
}
