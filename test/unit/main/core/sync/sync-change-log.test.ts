import { existsSync, readdirSync } from 'node:fs'
import { beforeEach, describe, expect, it } from 'vitest'
import { ChangeHistory } from '../../../../../src/main/core/changes/change-history'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import type { SyncRunOptions } from '../../../../../src/main/core/sync/sync-engine'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { fingerprintCache } from '../../../../helpers/cache-test-helpers'
import { useTempCache } from '../../../../helpers/temp-cache'
import { syncFromFake } from '../../../../helpers/sync-cache'
import { FakeListService, jsonResponse, makeEmployees } from '../../../../helpers/sync-fakes'

/** The sync engine's part in the change history: a complete run logs its changes, a run that ends otherwise none. */
describe('runSync and the change log', () => {
  const temp = useTempCache()
  let history: ChangeHistory
  beforeEach(() => {
    history = new ChangeHistory({ cache: temp.cache, queries: new QueryEngine(temp.cache) })
  })

  const sync = (service: FakeListService, options: Partial<SyncRunOptions> = {}) =>
    syncFromFake(temp.cache, service, { environment: 'staging', ...options })
  const logFiles = (): string[] =>
    existsSync(temp.cache.changeLogDirectory) ? readdirSync(temp.cache.changeLogDirectory) : []

  /** The employees numbered like a real service (a digit identifier column), so entries carry a number. */
  function staff(count: number): EmployeeRow[] {
    return makeEmployees(count).map((row, index) => ({ ...row, staffNo: String(9000 + index) }))
  }

  it('logs who a sync added, removed and changed, and records where it read from', async () => {
    const rows = staff(40)
    const first = await sync(new FakeListService(rows), { tenantId: 'tenant-7' })
    expect(first.changes?.firstSync).toBe(true)
    expect(logFiles()).toEqual([])

    const next = rows.filter((row) => row['UUID'] !== 'e-000007').map((row) => ({ ...row }))
    next[3]!['employeeStatus'] = 'Suspended'
    next.push({
      UUID: 'e-new',
      firstName: 'Nia',
      lastName: 'Moss',
      employeeStatus: 'Pending',
      staffNo: '9999',
    })
    const second = await sync(new FakeListService(next), { tenantId: 'tenant-7' })
    expect(second.changes).toMatchObject({ firstSync: false, added: 1, removed: 1, changed: 1 })
    expect(logFiles()).toHaveLength(1)

    expect(history.list()[0]).toMatchObject({
      runId: second.id,
      entriesKept: true,
      environment: 'staging',
      serviceAddress: 'https://payroll.example',
      tenantId: 'tenant-7',
    })
    expect(history.page(second.id, 'changed', 0, 10).items).toEqual([
      expect.objectContaining({
        UUID: next[3]!['UUID'],
        employeeNumber: next[3]!['staffNo'],
        status: 'Suspended',
        changes: [{ field: 'employeeStatus', before: rows[3]!['employeeStatus'], after: 'Suspended' }],
      }),
    ])
    expect(history.page(second.id, 'added', 0, 10).items).toEqual([
      {
        UUID: 'e-new',
        name: 'Nia Moss',
        firstName: 'Nia',
        lastName: 'Moss',
        employeeNumber: '9999',
        status: 'Pending',
      },
    ])
    expect(history.page(second.id, 'removed', 0, 10).items[0]?.row).toEqual(rows[7])
  })

  it('leaves no change log, and the history as it was, when a run fails or is cancelled', async () => {
    await sync(new FakeListService(staff(30)))
    await sync(new FakeListService(staff(31)))
    const before = fingerprintCache(temp.cache.path)
    const files = logFiles()
    expect(files).toHaveLength(1)

    const refusing = new FakeListService(staff(35), {
      before: (request) => (request.page === 3 ? jsonResponse(403, { message: 'no access' }) : undefined),
    })
    expect((await sync(refusing)).status).toBe('failed')
    const controller = new AbortController()
    const cancelled = await sync(new FakeListService(staff(50)), {
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.phase === 'committing') controller.abort()
      },
    })
    expect(cancelled.status).toBe('cancelled')

    expect(logFiles()).toEqual(files)
    expect(fingerprintCache(temp.cache.path).catalog).toBe(before.catalog)
    expect(history.list().map((run) => run.added)).toEqual([1, 30])
  })
})
