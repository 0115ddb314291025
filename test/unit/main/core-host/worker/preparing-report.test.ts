import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { EmployeeQuery, PreparingWork } from '../../../../../src/shared/domain/query'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { openCacheDatabase, type CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { columnLabel } from '../../../../../src/main/core/columns/column-label'
import { createLogger } from '../../../../../src/main/core/log/logger'
import type { ColumnBuilder } from '../../../../../src/main/core/query/column-builds'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import type { CoreJobs } from '../../../../../src/main/core-host/worker/core-jobs'
import { workerColumnBuilder } from '../../../../../src/main/core-host/worker/worker-column-builder'
import { WorkerHost } from '../../../../../src/main/core-host/worker/worker-host'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { EmployeeGenerator } from '../../../../../src/main/sandbox/data'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { seedSnapshot } from '../../../../helpers/seed-snapshot'
import { testCoreWorkerEntry } from '../../../../helpers/core-worker-bundle'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

const COUNT = 500

/** A build asked of the builder, held until the test lets it go on to the core worker (or fails it). */
interface HeldBuild {
  readonly name: string
  release(): void
  fail(error: Error): void
}

/** The core worker's builder, each call held until the test releases it: the test decides when a build ends. */
function heldBuilder(worker: ColumnBuilder, held: HeldBuild[]): ColumnBuilder {
  const hold = <T>(name: string, build: () => Promise<T>): Promise<T> =>
    new Promise<void>((resolve, reject) => held.push({ name, release: resolve, fail: reject })).then(build)
  return {
    searchIndex: (path) => hold('index', () => worker.searchIndex(path)),
    sortOrder: (source, build) => hold(`sort ${build.column}`, () => worker.sortOrder(source, build)),
    columnIndex: (source, build) => hold(`search ${build.column}`, () => worker.columnIndex(source, build)),
    uuidParts: (source) => hold('uuid parts', () => worker.uuidParts(source)),
  }
}

describe('the query engine says what it is preparing', () => {
  let cleanup: () => void
  let cache: CacheDatabase
  let host: WorkerHost<CoreJobs>
  let inline: QueryEngine

  beforeAll(async () => {
    const temp = makeTempDir()
    cleanup = temp.cleanup
    cache = openCacheDatabase(join(temp.dir, 'cache.db'), { key: TEST_CACHE_KEY })
    const generator = new EmployeeGenerator(11, COUNT)
    await seedSnapshot(
      cache,
      Array.from({ length: COUNT }, (_, i) => generator.row(i) as unknown as EmployeeRow),
    )
    host = new WorkerHost<CoreJobs>(await testCoreWorkerEntry(), { name: 'core worker' })
    inline = new QueryEngine(cache)
  })

  afterAll(async () => {
    await host.stop()
    cache.close()
    cleanup()
  })

  function engineWithReports() {
    const held: HeldBuild[] = []
    const reports: PreparingWork[][] = []
    const engine = new QueryEngine(cache, {
      builder: heldBuilder(workerColumnBuilder(host), held),
      onPreparing: (preparing) => reports.push(preparing),
    })
    /** The held build of that name, once the engine has asked for it. */
    const asked = async (name: string): Promise<HeldBuild> => {
      await vi.waitFor(() => expect(held.map((build) => build.name)).toContain(name))
      return held.find((build) => build.name === name)!
    }
    return { engine, held, reports, asked }
  }

  it('reports the index, then a sort and a "Search in" with their labels, and clears each as it ends', async () => {
    const { engine, reports, asked } = engineWithReports()
    const opening = engine.open()
    expect(reports).toEqual([[{ what: 'index', column: null, label: null }]])
    ;(await asked('index')).release()
    await opening
    expect(reports.at(-1)).toEqual([])

    const query: EmployeeQuery = {
      sort: { column: 'annualSalary', order: 'desc' },
      column: 'email',
      text: 'a',
      limit: 50,
    }
    const preparing = engine.prepare(query)
    const sort = await asked('sort annualSalary')
    const search = await asked('search email')
    // The labels are the columns' own, as employees:columns gives them to the table's headers.
    const labelOf = (key: string) => engine.listColumns().find((column) => column.key === key)?.label
    expect(labelOf('annualSalary')).toBe(columnLabel('annualSalary'))
    expect(reports.at(-1)).toEqual([
      { what: 'sort', column: 'annualSalary', label: labelOf('annualSalary') },
      { what: 'search', column: 'email', label: labelOf('email') },
    ])

    search.release()
    await vi.waitFor(() =>
      expect(reports.at(-1)).toEqual([
        { what: 'sort', column: 'annualSalary', label: labelOf('annualSalary') },
      ]),
    )
    sort.release()
    await preparing
    expect(reports.at(-1)).toEqual([])
    expect(engine.query(query)).toEqual(inline.query(query))

    // Built once: the next query needing the same order and index prepares nothing and says nothing.
    const seen = reports.length
    await engine.prepare({ ...query, text: 'b' })
    expect(reports).toHaveLength(seen)
  })

  it('reports two queries sharing one build once, and clears a build that failed', async () => {
    const { engine, reports, asked } = engineWithReports()
    const opening = engine.open()
    ;(await asked('index')).release()
    await opening
    reports.length = 0

    const query: EmployeeQuery = { sort: { column: 'hireDate', order: 'asc' } }
    const both = Promise.all([engine.prepare(query), engine.prepare(query)])
    const sort = await asked('sort hireDate')
    expect(reports).toEqual([[{ what: 'sort', column: 'hireDate', label: columnLabel('hireDate') }]])
    sort.fail(new RosterDeskError('internal', 'The core worker stopped.'))
    await both
    expect(reports).toEqual([[{ what: 'sort', column: 'hireDate', label: 'Hire date' }], []])
    // The query then builds the order inline: still the right answer.
    expect(engine.query(query)).toEqual(inline.query(query))
  })

  it('goes on building when the listener throws, and logs it', async () => {
    const held: HeldBuild[] = []
    const logged: string[] = []
    const engine = new QueryEngine(cache, {
      builder: heldBuilder(workerColumnBuilder(host), held),
      logger: createLogger((level, line) => logged.push(`${level}: ${line}`)),
      onPreparing: () => {
        throw new Error('the window is gone')
      },
    })
    const query: EmployeeQuery = { sort: { column: 'costCentre', order: 'asc' }, limit: 20 }
    const preparing = engine.prepare(query)
    for (const name of ['index', 'sort costCentre']) {
      await vi.waitFor(() => expect(held.map((build) => build.name)).toContain(name))
      held.find((build) => build.name === name)!.release()
    }
    await preparing
    expect(engine.query(query)).toEqual(inline.query(query))
    expect(
      logged.some((line) => line.startsWith('warn: Query: reporting what is being prepared failed')),
    ).toBe(true)
  })
})
