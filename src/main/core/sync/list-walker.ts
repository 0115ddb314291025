import { SYNC_LIMIT_NAMES } from '../../../shared/settings-rules'
import type { ListEnvelope } from '../api/list-envelope'
import { RosterDeskError, cancelledError, isAbortError } from '../errors'
import { runBounded } from './bounded-pool'
import { DeferredDeliveries, Speculation, fetchOrCancel, startSpeculation } from './page-pipeline'
import type { PageSource, WalkOptions } from './walk-types'

export interface WalkResult {
  /** The pass whose rows are the list: internally consistent and complete. */
  readonly pass: number
  readonly totalCount: number
  readonly limit: number
  readonly pages: number
  /** The UUIDs of that pass: exactly `totalCount` distinct employees. */
  readonly uuids: ReadonlySet<string>
}

interface PassState {
  readonly seen: Set<string>
  duplicates: number
  /** The first UUID the pass met a second time, and where; compared with the previous pass's. */
  firstDuplicate: { readonly uuid: string; readonly page: number; readonly row: number } | undefined
  readonly totalCounts: Set<number>
  readonly limits: Set<number>
  firstPage: readonly string[]
  verify: ListEnvelope | undefined
  delivered: number
}

/**
 * Reads every page of one list and proves the result complete. A pass fetches page 1 (with pages 2..concurrency
 * guessed alongside it), learns `totalCount` and the page size the service really uses, then the other pages
 * with bounded concurrency, and finally page 1 again. The pass counts only if it is internally consistent: every page reported the same totalCount and
 * limit, no UUID came twice, the distinct count equals totalCount, and page 1 still starts the same way.
 *
 * Records added or removed while paging shift the pages (rows seen twice, rows never seen) and break one of
 * those checks; the walker then runs another full pass, starting from the page 1 it just re-read. Because a
 * consistent pass is used on its own, employees removed during an earlier pass are not carried over. After
 * `maxPasses` inconsistent passes the run fails and says by how many employees the counts disagree.
 */
export async function walkList(source: PageSource, options: WalkOptions): Promise<WalkResult> {
  // Reported when the first page waits for it (DeferredDeliveries); until then, not an unhandled rejection.
  options.stagingReady?.catch(() => undefined)
  let carried: ListEnvelope | undefined
  let last: { unique: number; totalCount: number; duplicates: number } | undefined
  let previousDuplicate: { uuid: string; count: number } | undefined
  /** The walk's first totalCount: every later one is held to it (see `checkTotal`). */
  let baseline: number | undefined
  for (let pass = 1; pass <= options.maxPasses; pass++) {
    throwIfCancelled(options.signal)
    const speculative = carried === undefined ? startSpeculation(source, options) : new Speculation()
    let first: ListEnvelope
    try {
      first = carried ?? (await fetchOrCancel(source, { page: 1, limit: options.pageSize }, options))
    } catch (error) {
      speculative.abandon()
      throw error
    }
    carried = undefined
    baseline ??= first.totalCount
    checkTotal(first, 1, baseline, options)
    const walkBaseline = baseline
    const totalCount = first.totalCount
    const limit = first.limit
    const pages = totalCount === 0 ? 0 : Math.ceil(totalCount / limit)
    // Guessed pages are usable only if the service served the size they asked for; beyond the last page, never.
    speculative.keep(limit === (options.guessSize ?? options.pageSize) ? pages : 0)
    const state: PassState = {
      seen: new Set(),
      duplicates: 0,
      firstDuplicate: undefined,
      totalCounts: new Set([totalCount]),
      limits: new Set([limit]),
      firstPage: first.rows.map((row) => String(row['UUID'])),
      verify: undefined,
      delivered: 0,
    }
    options.onPassStart?.({ pass, pages, totalCount, limit })
    const passControl = new AbortController()
    const onAbort = (): void => passControl.abort(options.signal?.reason)
    options.signal?.addEventListener('abort', onAbort, { once: true })
    const deliveries = new DeferredDeliveries((error) => passControl.abort(error), options.stagingReady)
    const deliverPage = (page: number, envelope: ListEnvelope): void =>
      deliveries.add(() => {
        deliver(pass, page, limit, envelope, state, options)
        if (++state.delivered === pages) options.onPagesIn?.(pass)
      })
    deliverPage(1, first)

    // Page 1 is re-read last: a change at the front after it was first read shows up as a different page 1.
    try {
      await runBounded(
        pageOrder(pages),
        options.concurrency,
        async (page, signal) => {
          const envelope =
            (await speculative.take(page, signal)) ??
            (await fetchOrCancel(source, { page, limit }, { ...options, signal }))
          checkTotal(envelope, page, walkBaseline, options)
          state.totalCounts.add(envelope.totalCount)
          state.limits.add(envelope.limit)
          if (page === 1) state.verify = envelope
          else deliverPage(page, envelope)
        },
        passControl.signal,
      )
    } catch (error) {
      speculative.abandon()
      deliveries.abandon()
      deliveries.throwIfFailed()
      throw isAbortError(error) || options.signal?.aborted ? cancelledError('The sync') : error
    } finally {
      options.signal?.removeEventListener('abort', onAbort)
    }
    await deliveries.flush()
    throwIfCancelled(options.signal)

    if (isConsistent(state, totalCount)) return { pass, totalCount, limit, pages, uuids: state.seen }
    // The same UUID twice, as often, in two passes whose totals held still: the list is wrong, not moving. (Where
    // it is met second depends on which page arrived first, so the place is reported, not compared.)
    const duplicate = state.firstDuplicate
    if (
      duplicate !== undefined &&
      duplicate.uuid === previousDuplicate?.uuid &&
      state.duplicates === previousDuplicate.count &&
      state.totalCounts.size === 1
    ) {
      throw repeatedDuplicateError(options, duplicate, pass)
    }
    previousDuplicate =
      duplicate === undefined || state.totalCounts.size !== 1
        ? undefined
        : { uuid: duplicate.uuid, count: state.duplicates }
    last = {
      unique: state.seen.size,
      totalCount: latestTotal(state, totalCount),
      duplicates: state.duplicates,
    }
    if (state.verify !== undefined && state.verify.limit === limit) carried = state.verify
  }
  throw unreconciledError(options, last?.unique ?? 0, last?.totalCount ?? 0, last?.duplicates ?? 0)
}

/** Pages 2..pages, then page 1 again, made one at a time as lanes free up (never an array of every page). */
function* pageOrder(pages: number): Generator<number> {
  for (let page = 2; page <= pages; page++) yield page
  if (pages > 1) yield 1
}

/**
 * Employees a list may gain or lose while RosterDesk reads it before the change is more than payroll's own
 * churn can explain: a tenth of the list, and at least a page and at least 100 (a small list may see a few hires
 * in a minute).
 * A move past that is a service making its numbers up, which another pass would not fix.
 */
export function driftAllowance(baseline: number, limit: number): number {
  return Math.max(Math.ceil(baseline / 10), limit, 100)
}

function listName(options: WalkOptions): string {
  return options.payCycleId === undefined
    ? 'employee list'
    : `employee list of pay cycle ${options.payCycleId}`
}

/** The ceiling and the jump checks on one page's totalCount; both are faults a retry cannot fix. */
function checkTotal(envelope: ListEnvelope, page: number, baseline: number, options: WalkOptions): void {
  const total = envelope.totalCount
  if (options.maxTotalCount !== undefined && total > options.maxTotalCount) {
    throw new RosterDeskError(
      'service',
      `The payroll service claims ${grouped(total)} employees in its ${listName(options)} (page ${page}, field ` +
        `“totalCount”), more than the ${grouped(options.maxTotalCount)} RosterDesk is set to accept, so it stopped ` +
        `before reading any further. The cache was not changed. If the number is real, raise “${SYNC_LIMIT_NAMES.maxEmployees.name}” in ` +
        'Settings; if not, tell the payroll service’s administrator.',
      { detail: `page ${page} totalCount ${total} over the ceiling ${options.maxTotalCount}` },
    )
  }
  const allowed = driftAllowance(baseline, envelope.limit)
  if (Math.abs(total - baseline) > allowed) {
    throw new RosterDeskError(
      'service',
      `The payroll service’s ${listName(options)} changed size from ${grouped(baseline)} to ${grouped(total)} ` +
        `employees while RosterDesk read it (page ${page}, field “totalCount”): more than employees joining or ` +
        'leaving during a sync can explain, so RosterDesk stopped. The cache was not changed. Sync again later; ' +
        'if it happens again, tell the payroll service’s administrator.',
      { detail: `page ${page} totalCount ${total} against ${baseline} (allowed drift ${allowed})` },
    )
  }
}

function repeatedDuplicateError(
  options: WalkOptions,
  duplicate: NonNullable<PassState['firstDuplicate']>,
  passes: number,
): RosterDeskError {
  return new RosterDeskError(
    'service',
    `The payroll service lists the employee with UUID ${duplicate.uuid} twice in its ${listName(options)} ` +
      `(again on page ${duplicate.page}, row ${duplicate.row}, field “UUID”), the same way in ${passes} full ` +
      'passes while its totals held still: the list is wrong on the service, not moving. The cache was not ' +
      'changed. Tell the payroll service’s administrator which UUID is listed twice, then sync again.',
    { detail: `duplicate UUID at page ${duplicate.page} row ${duplicate.row} in ${passes} passes` },
  )
}

function grouped(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

function unreconciledError(
  options: WalkOptions,
  unique: number,
  expected: number,
  duplicates: number,
): RosterDeskError {
  const difference = Math.abs(expected - unique)
  const how =
    difference === 0
      ? `its pages kept shifting (${duplicates} employees appeared twice)`
      : `it received ${unique} distinct employees where the service reports ${expected} (${difference} ${unique < expected ? 'missing' : 'too many'})`
  const list = listName(options)
  return new RosterDeskError(
    'service',
    `The ${list} kept changing while RosterDesk read it: after ${options.maxPasses} full passes ${how}. ` +
      'The cache was not changed; sync again in a few minutes.',
    { detail: 'unreconciled list' },
  )
}

function deliver(
  pass: number,
  page: number,
  limit: number,
  envelope: ListEnvelope,
  state: PassState,
  options: WalkOptions,
): void {
  envelope.rows.forEach((row, index) => {
    const uuid = String(row['UUID'])
    if (!state.seen.has(uuid)) state.seen.add(uuid)
    else if (state.duplicates++ === 0) state.firstDuplicate = { uuid, page, row: index + 1 }
  })
  const arrived = { pass, page, position: (page - 1) * limit, rows: envelope.rows }
  options.onPage(
    envelope.numbersAsText === undefined ? arrived : { ...arrived, numbersAsText: envelope.numbersAsText },
  )
}

function isConsistent(state: PassState, totalCount: number): boolean {
  if (state.totalCounts.size !== 1 || state.limits.size !== 1) return false
  if (state.duplicates > 0 || state.seen.size !== totalCount) return false
  if (state.verify === undefined) return true
  // The same employees on page 1 as at the start; their order within the page is not relied on.
  const first = new Set(state.firstPage)
  const again = state.verify.rows
  return again.length === state.firstPage.length && again.every((row) => first.has(String(row['UUID'])))
}

/** The count the service gave last in the pass, for the failure message. */
function latestTotal(state: PassState, fallback: number): number {
  return state.verify?.totalCount ?? [...state.totalCounts].pop() ?? fallback
}

/** Throws the one cancelled error when the run's signal has been aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError('The sync')
}
