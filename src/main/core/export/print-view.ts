import type { EmployeeRow } from '../../../shared/domain/rows'
import { chosenRows } from '../../../shared/export-rows'
import type { ExportPlan } from './export-plan'
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
  /** The request's plan (planExport): its rows, order and columns. */
  readonly plan: ExportPlan
  readonly queries: ExportQueries
  /** The page's heading: the export's About facts, and when the page was made. */
  readonly about: ExportAbout
  readonly maxRows?: number
  /** The machine policy's `exports.maxRows`: the page holds no more, and says why when it cuts there. */
  readonly policyMaxRows?: number
  /** The regional formats of the page's numbers and dates; en-US when absent. */
  readonly locale?: string
  /** The profile's currency setting (an ISO 4217 code): amounts whose row names none are written in it. */
  readonly currency?: string
}

/**
 * The page for an export request: the same rows, order and columns the export would write (its plan), up to
 * `maxRows`, headed by the same facts as the About sheet (inline-export-runner.ts builds both).
 */
export function buildPrintView(options: PrintViewOptions): PrintView {
  const { plan, about } = options
  const bound = options.maxRows ?? PRINT_MAX_ROWS
  const policy = options.policyMaxRows
  const maxRows = policy === undefined ? bound : Math.min(bound, policy)
  // "Selected rows" print what "Export selected rows" would write: the view's rows among them, in its order
  // (chosenRowSource's rule, read here synchronously).
  const wanted = plan.uuids === undefined ? undefined : new Set(plan.uuids)
  const viewTotal = options.queries.count(plan.query)
  const total = wanted === undefined ? viewTotal : Math.min(wanted.size, viewTotal)
  const rows: EmployeeRow[] = []
  const iterator = options.queries.iterateRows(
    plan.query,
    Math.min(1000, Math.max(1, maxRows)),
    wanted === undefined ? undefined : { uuids: [...wanted] },
  )
  try {
    for (let next = iterator.next(); next.done !== true && rows.length < maxRows; next = iterator.next()) {
      for (const row of wanted === undefined ? next.value : chosenRows(next.value, wanted)) {
        if (rows.length === maxRows) break
        rows.push(row)
      }
    }
  } finally {
    // Lets the engine release the snapshot it held for the iteration.
    iterator.return?.()
  }
  return {
    html: printPageHtml({
      about,
      columns: plan.columns,
      rows,
      total,
      ...(policy !== undefined && policy <= bound ? { heldToPolicy: true } : {}),
      ...(options.locale === undefined ? {} : { locale: options.locale }),
      ...(options.currency === undefined ? {} : { currency: options.currency }),
    }),
    title: printTitle(about),
    rows: rows.length,
    total,
  }
}
