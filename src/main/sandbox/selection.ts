import { STATUS_BY_CODE } from './data'
import type { EmployeeField } from './data'
import type { Dataset } from './dataset'
import type { ListFilter, SortOrder } from './list-query'
import { sortIds } from './sort-order'

/** Matching employees in response order, addressed by position so nothing is copied for the plain list. */
export interface Selection {
  readonly count: number
  idAt(position: number): number
}

/** Each cached entry costs 4 bytes per row; a handful covers a client flipping between a few views. */
const CACHE_ENTRIES = 8

function arraySelection(ids: Int32Array): Selection {
  return {
    count: ids.length,
    idAt: (position) => ids[position] ?? -1,
  }
}

function hasFilter(filter: ListFilter): boolean {
  return filter.statusCode !== null || filter.payCycleId !== null || filter.search !== null
}

/**
 * Computes filtered and sorted views of the dataset and remembers them until the dataset changes, so
 * paging through a sorted million-row list sorts once rather than once per page.
 */
export class SelectionCache {
  private readonly cache = new Map<string, Int32Array>()
  private cachedVersion: number

  constructor(private readonly dataset: Dataset) {
    this.cachedVersion = dataset.version
  }

  select(filter: ListFilter, sortColumn: EmployeeField | null, sortOrder: SortOrder): Selection {
    if (this.cachedVersion !== this.dataset.version) {
      this.cache.clear()
      this.cachedVersion = this.dataset.version
    }
    if (!hasFilter(filter) && sortColumn === null) {
      const dataset = this.dataset
      const count = dataset.count
      // Without a column, `desc` reverses the default order; it is the only reading that is not arbitrary.
      return sortOrder === 'desc'
        ? { count, idAt: (position) => dataset.idAt(count - 1 - position) }
        : { count, idAt: (position) => dataset.idAt(position) }
    }
    const filterKey = JSON.stringify(filter)
    const filtered = hasFilter(filter)
      ? this.remember(filterKey, () => this.filter(filter))
      : this.dataset.ids()
    if (sortColumn === null) {
      if (sortOrder === 'asc') return arraySelection(filtered)
      const count = filtered.length
      return { count, idAt: (position) => filtered[count - 1 - position] ?? -1 }
    }
    const sortKey = JSON.stringify([filterKey, sortColumn, sortOrder])
    const generator = this.dataset.generator
    return arraySelection(this.remember(sortKey, () => sortIds(filtered, sortColumn, sortOrder, generator)))
  }

  private remember(key: string, compute: () => Int32Array): Int32Array {
    const hit = this.cache.get(key)
    if (hit !== undefined) {
      // Re-insert to mark as most recently used; Map iteration order then gives LRU eviction.
      this.cache.delete(key)
      this.cache.set(key, hit)
      return hit
    }
    const value = compute()
    this.cache.set(key, value)
    while (this.cache.size > CACHE_ENTRIES) {
      const oldest = this.cache.keys().next().value
      if (oldest === undefined) break
      this.cache.delete(oldest)
    }
    return value
  }

  private filter(filter: ListFilter): Int32Array {
    const generator = this.dataset.generator
    const wantedStatus = filter.statusCode === null ? null : (STATUS_BY_CODE.get(filter.statusCode) ?? null)
    if (filter.statusCode !== null && wantedStatus === null) return new Int32Array(0)
    const needle = filter.search?.value.toLowerCase() ?? ''
    const searchColumn = filter.search?.column ?? null
    const ids = this.dataset.ids()
    const matches = new Int32Array(ids.length)
    let count = 0
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] ?? 0
      if (wantedStatus !== null && generator.employeeStatus(id) !== wantedStatus) continue
      if (filter.payCycleId !== null && generator.payCycleId(id) !== filter.payCycleId) continue
      if (searchColumn !== null) {
        const value = generator.value(searchColumn, id)
        if (value === null || !String(value).toLowerCase().includes(needle)) continue
      }
      matches[count++] = id
    }
    return matches.slice(0, count)
  }
}
