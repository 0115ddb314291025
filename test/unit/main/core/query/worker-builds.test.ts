import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmployeeQuery } from '../../../../../src/shared/domain/query'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { ColumnBuilder } from '../../../../../src/main/core/query/column-builds'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import type { CoreJobs } from '../../../../../src/main/core-host/worker/core-jobs'
import { workerColumnBuilder } from '../../../../../src/main/core-host/worker/worker-column-builder'
import { WorkerHost } from '../../../../../src/main/core-host/worker/worker-host'
import { EmployeeGenerator } from '../../../../../src/main/sandbox/data'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { seedSnapshot } from '../../../../helpers/seed-snapshot'
import { testCoreWorkerEntry } from '../../../../helpers/core-worker-bundle'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

const COUNT = 3_000

/**
 * First-use sort orders and "Search in" column indexes built by the core worker (on its own read-only
 * connection) must answer exactly as the ones the engine builds inline.
 */
describe('query builds on the core worker', () => {
  let cleanup: () => void
  let cache: CacheDatabase
  let host: WorkerHost<CoreJobs>
  let calls: string[]
  /** What the engine told the builder of the file's check, per search-index build. */
  const indexChecked: unknown[] = []
  let engine: QueryEngine
  let inline: QueryEngine
  let columns: string[]
  const generator = new EmployeeGenerator(5, COUNT)

  beforeAll(async () => {
    const temp = makeTempDir()
    cleanup = temp.cleanup
    cache = openCacheDatabase(join(temp.dir, 'cache.db'), { key: TEST_CACHE_KEY })
    const rows = Array.from({ length: COUNT }, (_, i) => generator.row(i) as unknown as EmployeeRow)
    await seedSnapshot(cache, rows)
    host = new WorkerHost<CoreJobs>(await testCoreWorkerEntry(), { name: 'core worker' })
    const worker = workerColumnBuilder(host)
    calls = []
    const counted: ColumnBuilder = {
      searchIndex: (path, checked) => {
        calls.push('search index')
        indexChecked.push(checked)
        return worker.searchIndex(path, checked)
      },
      sortOrder: (source, build) => {
        calls.push(`sort ${build.column}`)
        return worker.sortOrder(source, build)
      },
      columnIndex: (source, build) => {
        calls.push(`index ${build.column}`)
        return worker.columnIndex(source, build)
      },
      uuidParts: (source) => {
        calls.push('uuid parts')
        return worker.uuidParts(source)
      },
    }
    engine = new QueryEngine(cache, { builder: counted })
    inline = new QueryEngine(cache)
    columns = inline.listColumns().map((column) => column.key)
  })

  afterAll(async () => {
    await host.stop()
    cache.close()
    cleanup()
  })

  const uuids = (result: { rows: EmployeeRow[] }) => result.rows.map((row) => row['UUID'])
  async function same(query: EmployeeQuery): Promise<void> {
    // As employees:query asks: prepared and answered, the query parsed once; then as prepare and query would.
    const prepared = await engine.answer(query)
    expect(prepared).toEqual(engine.query(query))
    const expected = inline.query(query)
    expect(prepared.total).toBe(expected.total)
    expect(uuids(prepared)).toEqual(uuids(expected))
  }

  it('sorts every column as the inline build does, building each order once', async () => {
    expect(columns.length).toBeGreaterThan(8)
    for (const column of columns) {
      await same({ sort: { column, order: 'asc' }, limit: 200 })
      await same({ sort: { column, order: 'desc' }, limit: 200, offset: COUNT - 150 })
    }
    // The snapshot's own index was opened on the worker too, once.
    expect(calls.filter((call) => call === 'search index')).toEqual(['search index'])
    const sorts = calls.filter((call) => call.startsWith('sort '))
    // lastName is the stored default order; every other column is built once, on the worker.
    expect(sorts).toEqual(columns.filter((column) => column !== 'lastName').map((column) => `sort ${column}`))
  })

  it('finds parts of UUIDs as the inline read does, the UUIDs read once, on the worker', async () => {
    for (const id of [3, 17, 211]) {
      const uuid = generator.uuid(id)
      for (const text of [uuid.slice(9, 17), uuid.slice(14, 36).toUpperCase(), uuid.slice(20, 24)]) {
        await same({ column: 'UUID', text, limit: 100 })
      }
      expect((await engine.answer({ column: 'UUID', text: uuid.slice(9, 27), limit: 10 })).total).toBe(1)
    }
    expect(calls.filter((call) => call === 'uuid parts')).toEqual(['uuid parts'])
  })

  it('searches in every column as the inline build does', async () => {
    for (const column of columns) {
      const value = String(generator.value(column as never, 17) ?? '')
      for (const text of [value.slice(0, 1), value.slice(0, 3), value]) {
        if (text !== '') await same({ column, text, limit: 100 })
      }
    }
    // The stored index covers the names and the UUID; the other columns were indexed on the worker.
    const indexed = calls.filter((call) => call.startsWith('index ')).map((call) => call.slice(6))
    expect(indexed.sort()).toEqual(
      columns.filter((column) => !['UUID', 'firstName', 'lastName'].includes(column)).sort(),
    )
  })

  it('shares one build between queries that need it at the same time', async () => {
    const worker = workerColumnBuilder(host)
    const asked: string[] = []
    const fresh = new QueryEngine(cache, {
      builder: {
        searchIndex: (path) => {
          asked.push('search index')
          return worker.searchIndex(path)
        },
        sortOrder: (source, build) => {
          asked.push(`sort ${build.column}`)
          return worker.sortOrder(source, build)
        },
        columnIndex: (source, build) => {
          asked.push(`index ${build.column}`)
          return worker.columnIndex(source, build)
        },
        uuidParts: (source) => worker.uuidParts(source),
      },
    })
    const query: EmployeeQuery = {
      sort: { column: 'hireDate', order: 'asc' },
      column: 'jobTitle',
      text: 'an',
    }
    await Promise.all([fresh.prepare(query), fresh.prepare(query), fresh.prepare(query)])
    expect(asked.sort()).toEqual(['index jobTitle', 'search index', 'sort hireDate'])
    expect(uuids(fresh.query(query))).toEqual(uuids(inline.query(query)))
  })

  it('opens a snapshot’s stored index on the worker exactly as it reads here', async () => {
    const fresh = new QueryEngine(cache, { builder: workerColumnBuilder(host) })
    await fresh.open()
    for (const query of [
      { text: 'ma', facets: true },
      { text: String(generator.value('employeeNumber', 40)), facets: true },
      { statuses: ['Active'], payCycleIds: ['PC-MONTHLY'], facets: true },
    ] satisfies EmployeeQuery[]) {
      expect(fresh.query(query)).toEqual(inline.query(query))
    }
  })

  it('hands the worker the file as this thread checked it, so the worker does not check it again', () => {
    const reader = cache.currentSnapshot()
    expect(reader).not.toBeNull()
    expect(indexChecked.length).toBeGreaterThan(0)
    expect(indexChecked).toEqual(indexChecked.map(() => reader?.checkedAs))
  })

  it('refuses a query naming a column the cache does not have, as query does', async () => {
    await expect(engine.prepare({ sort: { column: 'nope', order: 'asc' } })).rejects.toMatchObject({
      code: 'validation',
    })
  })
})
