import type { QueryResult } from '../../../shared/domain/query'
import type { EmployeeRow } from '../../../shared/domain/rows'

/** Loads `limit` rows of the current query starting at `offset`. */
export type WindowLoader = (offset: number, limit: number) => Promise<QueryResult>

export interface RowWindowCacheOptions {
  /** Rows per request; main allows up to MAX_QUERY_WINDOW. */
  readonly pageSize: number
  /** Pages kept in memory; the ones farthest from what is on screen are dropped first. */
  readonly maxPages: number
}

const DEFAULTS: RowWindowCacheOptions = { pageSize: 100, maxPages: 40 }

/**
 * The rows of one query, fetched a page at a time as the table scrolls. A table of 100,000 employees never holds
 * more than `maxPages × pageSize` rows, and a fast scroll only asks for the pages it stops on. A cache belongs to
 * one query: when the query changes the owner makes a new cache, so late answers for the old query are ignored.
 */
export class RowWindowCache {
  readonly #load: WindowLoader
  readonly #onChange: () => void
  readonly #options: RowWindowCacheOptions
  readonly #pages = new Map<number, EmployeeRow[]>()
  readonly #pending = new Set<number>()
  readonly #failed = new Set<number>()
  #total: number
  #disposed = false

  constructor(
    load: WindowLoader,
    onChange: () => void,
    first: { total: number; rows: EmployeeRow[] },
    options: Partial<RowWindowCacheOptions> = {},
  ) {
    this.#load = load
    this.#onChange = onChange
    this.#options = { ...DEFAULTS, ...options }
    this.#total = first.total
    this.#pages.set(0, first.rows.slice(0, this.#options.pageSize))
  }

  get total(): number {
    return this.#total
  }

  get pageSize(): number {
    return this.#options.pageSize
  }

  /** The row at `index`, or undefined while its page is loading (or after it failed). */
  rowAt(index: number): EmployeeRow | undefined {
    const size = this.#options.pageSize
    return this.#pages.get(Math.floor(index / size))?.[index % size]
  }

  /** True when the page holding `index` could not be loaded; `ensure` tries it again. */
  failedAt(index: number): boolean {
    return this.#failed.has(Math.floor(index / this.#options.pageSize))
  }

  /** Requests every page that rows `start`..`end` (inclusive) touch and that is neither cached nor on its way. */
  ensure(start: number, end: number): void {
    if (this.#disposed || this.#total === 0) return
    const size = this.#options.pageSize
    const first = Math.max(0, Math.floor(start / size))
    const last = Math.min(Math.floor((this.#total - 1) / size), Math.floor(Math.max(start, end) / size))
    for (let page = first; page <= last; page += 1) {
      if (!this.#pages.has(page) && !this.#pending.has(page)) void this.#fetch(page, first, last)
    }
  }

  /**
   * The rows at `indexes` (any order, any distance from the screen), for a copy or an export of a selection:
   * cached ones as they are, the rest read in windows of `windowSize` through the same loader, without filling
   * the cache (which keeps what is on screen). Rows the query no longer has are left out.
   */
  async rowsAt(indexes: readonly number[], windowSize = 1000): Promise<EmployeeRow[]> {
    const found = new Map<number, EmployeeRow>()
    const windows = new Set<number>()
    for (const index of indexes) {
      const row = this.rowAt(index)
      if (row !== undefined) found.set(index, row)
      else if (index >= 0 && index < this.#total) windows.add(Math.floor(index / windowSize))
    }
    for (const window of [...windows].sort((a, b) => a - b)) {
      const result = await this.#load(window * windowSize, windowSize)
      result.rows.forEach((row, offset) => found.set(window * windowSize + offset, row))
    }
    return indexes.flatMap((index) => {
      const row = found.get(index)
      return row === undefined ? [] : [row]
    })
  }

  /**
   * Stops delivering results: a newer query's rows have replaced these on screen, or the view has gone. Not before:
   * while a newer answer is on its way these rows are still shown, and still scrolled.
   */
  dispose(): void {
    this.#disposed = true
  }

  async #fetch(page: number, visibleFirst: number, visibleLast: number): Promise<void> {
    const size = this.#options.pageSize
    this.#pending.add(page)
    this.#failed.delete(page)
    try {
      const result = await this.#load(page * size, size)
      if (this.#disposed) return
      this.#pages.set(page, result.rows)
      this.#total = result.total
      this.#evict(visibleFirst, visibleLast)
    } catch {
      if (this.#disposed) return
      this.#failed.add(page)
    } finally {
      this.#pending.delete(page)
    }
    this.#onChange()
  }

  #evict(visibleFirst: number, visibleLast: number): void {
    const excess = this.#pages.size - this.#options.maxPages
    if (excess <= 0) return
    const centre = (visibleFirst + visibleLast) / 2
    const byDistance = [...this.#pages.keys()]
      .filter((page) => page < visibleFirst || page > visibleLast)
      .sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre))
    for (const page of byDistance.slice(0, excess)) this.#pages.delete(page)
  }
}
