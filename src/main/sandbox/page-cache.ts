import type { ListQuery } from './list-query'

/** Enough for every page of a 100,000-employee list at any page size, and a few sorted views besides. */
const DEFAULT_BUDGET_CHARS = 96 * 1024 * 1024

/**
 * Remembers serialised list pages until the dataset changes, least recently used first out, within a budget of
 * characters. A real service answers from a database in a few milliseconds; without this, building and
 * serialising 500 rows per request on the machine the client runs on would be most of what a benchmark of
 * the client measures.
 */
export class PageBodyCache {
  private readonly bodies = new Map<string, string>()
  private chars = 0
  private version: number

  constructor(
    initialVersion: number,
    private readonly budgetChars = DEFAULT_BUDGET_CHARS,
  ) {
    this.version = initialVersion
  }

  /** The cached body for this query at this dataset version, or one built by `build` and remembered. */
  body(version: number, query: ListQuery, limit: number, build: () => string): string {
    if (version !== this.version) {
      this.bodies.clear()
      this.chars = 0
      this.version = version
    }
    const key = keyOf(query, limit)
    const cached = this.bodies.get(key)
    if (cached !== undefined) {
      // Map keeps insertion order: re-inserting makes this the most recently used.
      this.bodies.delete(key)
      this.bodies.set(key, cached)
      return cached
    }
    const built = build()
    if (built.length > this.budgetChars) return built
    this.bodies.set(key, built)
    this.chars += built.length
    for (const [oldKey, oldBody] of this.bodies) {
      if (this.chars <= this.budgetChars) break
      this.bodies.delete(oldKey)
      this.chars -= oldBody.length
    }
    return built
  }

  get size(): number {
    return this.bodies.size
  }
}

function keyOf(query: ListQuery, limit: number): string {
  const f = query.filter
  return JSON.stringify([
    query.page,
    limit,
    query.sortColumn,
    query.sortOrder,
    f.statusCode,
    f.payCycleId,
    f.search?.column ?? null,
    f.search?.value ?? null,
  ])
}
