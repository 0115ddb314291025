import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { SyncProgress } from '../../../../../src/shared/domain/sync'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { runSync } from '../../../../../src/main/core/sync/sync-engine'
import { checkValue, serviceAddressSchema, settingsSchema } from '../../../../../src/shared/settings-schema'
import type { SyncRunOptions } from '../../../../../src/main/core/sync/sync-engine'
import { CaptureLogger } from '../../../../helpers/capture-logger'
import { fingerprintCache } from '../../../../helpers/cache-test-helpers'
import { useTempCache } from '../../../../helpers/temp-cache'
import { syncFromFake } from '../../../../helpers/sync-cache'
import {
  FakeListService,
  FakeTokens,
  fakeClock,
  jsonResponse,
  makeEmployees,
} from '../../../../helpers/sync-fakes'
import { rawSnapshot } from '../../../../helpers/raw-snapshot'

describe('runSync', () => {
  const temp = useTempCache()

  const sync = (service: FakeListService, options: Partial<SyncRunOptions> = {}) =>
    syncFromFake(temp.cache, service, options)

  const storedRows = (): Array<{ uuid: string; row_json: string }> =>
    rawSnapshot(temp.cache.currentSnapshot())
      .prepare('SELECT uuid, row_json FROM employees ORDER BY uuid')
      .all() as Array<{
      uuid: string
      row_json: string
    }>

  it('stores exactly the service’s employees, every field as sent, and reports progress', async () => {
    const rows = makeEmployees(95)
    const service = new FakeListService(rows)
    const progress: SyncProgress[] = []
    const summary = await sync(service, { onProgress: (p) => progress.push(p) })
    expect(summary).toMatchObject({ status: 'complete', totalCount: 95, stored: 95, pages: 10, requests: 11 })
    expect(summary.changes).toMatchObject({ added: 95, removed: 0, changed: 0 })
    expect(summary.changes?.addedSample).toHaveLength(20)
    const sorted = [...rows].sort((a, b) => String(a['UUID']).localeCompare(String(b['UUID'])))
    expect(storedRows().map((r) => JSON.parse(r.row_json) as unknown)).toEqual(sorted)
    expect(temp.cache.runs.lastRun()).toEqual(summary)
    expect(temp.cache.employeeCount()).toBe(95)
    const listing = progress.filter((p) => p.phase === 'listing')
    expect(listing.at(-1)).toMatchObject({ rows: 95, rowsTotal: 95, fraction: 1 })
    expect(progress.at(-1)?.phase).toBe('committing')
    const columns = rawSnapshot(temp.cache.currentSnapshot())
      .prepare('SELECT key, kind FROM columns ORDER BY position')
      .all()
    expect(columns).toContainEqual({ key: 'salary', kind: 'number' })
  })

  it('logs the settings a run used, the service address without its trailing slash', async () => {
    const summary = await sync(new FakeListService(makeEmployees(12)), {
      baseUrl: 'https://payroll.example/api/',
      tenantId: 'tenant-7',
      trackedPayCycles: ['PC-A'],
    })
    expect(summary.status).toBe('complete')
    expect(temp.cache.runs.log.settingsOf(summary.id)).toEqual({
      pageSize: 10,
      concurrency: 3,
      trackedPayCycles: ['PC-A'],
      tenantId: 'tenant-7',
      baseUrl: 'https://payroll.example/api',
    })
    expect(temp.cache.runs.log.settingsOf(9999)).toBeUndefined()
  })

  it('reports what changed since the previous snapshot and keeps the full lists in it', async () => {
    const rows = makeEmployees(40)
    await sync(new FakeListService(rows))
    const next = rows.filter((row) => row['UUID'] !== 'e-000005').map((row) => ({ ...row }))
    next[0]!['employeeStatus'] = 'Terminated'
    next[0]!['badge'] = 'B-1'
    next.push({ UUID: 'e-new', firstName: 'Nia', lastName: 'Moss', employeeStatus: 'Pending' })
    const summary = await sync(new FakeListService(next))
    expect(summary.changes).toMatchObject({
      added: 1,
      removed: 1,
      changed: 1,
      addedSample: [{ UUID: 'e-new', name: 'Nia Moss' }],
      removedSample: [{ UUID: 'e-000005', name: 'First5 Last5' }],
      changedSample: [{ UUID: 'e-000000', name: 'First0 Last0', fields: ['employeeStatus', 'badge'] }],
    })
    const db = rawSnapshot(temp.cache.currentSnapshot())
    expect(db.prepare("SELECT uuid FROM employees WHERE change = 'added'").pluck().all()).toEqual(['e-new'])
    expect(db.prepare("SELECT changed_fields FROM employees WHERE change = 'changed'").pluck().all()).toEqual(
      ['["employeeStatus","badge"]'],
    )
    expect(db.prepare('SELECT uuid, name FROM removed_employees').all()).toEqual([
      { uuid: 'e-000005', name: 'First5 Last5' },
    ])
  })

  it('leaves the previous snapshot exactly as it was when a run fails for good', async () => {
    await sync(new FakeListService(makeEmployees(50)))
    const before = fingerprintCache(temp.cache.path)
    const failing = new FakeListService(makeEmployees(60), {
      before: (request) => (request.page === 3 ? jsonResponse(403, { message: 'no access' }) : undefined),
    })
    const summary = await sync(failing, { tenantId: 'tenant-x' })
    expect(summary.status).toBe('failed')
    expect(summary.error).toMatch(/refused access to tenant “tenant-x” \(HTTP 403\)/)
    const after = fingerprintCache(temp.cache.path)
    expect(after.catalog).toBe(before.catalog)
    expect(after.snapshotLogical).toBe(before.snapshotLogical)
    expect(after.snapshotBytes).toBe(before.snapshotBytes)
    expect(after.runs.slice(0, before.runs.length)).toEqual(before.runs)
    expect(after.runs).toHaveLength(before.runs.length + 1)
    expect(readdirSync(temp.cache.snapshotDirectory)).toHaveLength(1)
    expect(temp.cache.runs.lastRun()).toMatchObject({ status: 'failed' })
    expect(temp.cache.employeeCount()).toBe(50)
  })

  it('says a run failed for lack of network, so the app can show it is offline, and remembers why', async () => {
    await sync(new FakeListService(makeEmployees(20)))
    const unreachable = async (): Promise<Response> => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') })
    }
    const logger = new CaptureLogger()
    const summary = await runSync(
      {
        cache: temp.cache,
        fetch: unreachable,
        tokens: new FakeTokens(),
        clock: fakeClock().clock,
        random: () => 0.5,
        logger,
      },
      { baseUrl: 'https://payroll.example', pageSize: 10, retry: { maxAttempts: 2 } },
    )
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'network' })
    expect(summary.error).toMatch(/could not reach|network|connection/i)
    expect(temp.cache.runs.lastRun()).toMatchObject({ status: 'failed', errorCode: 'network' })
    expect(temp.cache.employeeCount()).toBe(20)
    // The summary keeps the clerk's words; the log keeps why, down to the socket error.
    expect(logger.lines).toHaveLength(1)
    const entry = logger.lines[0]!.split('\n')
    expect(entry[0]).toBe('warn Sync failed')
    expect(entry[1]).toMatch(/^ {2}RosterDeskError \[network\]: /)
    expect(entry[2]).toBe('    detail: TypeError')
    expect(entry).toContain('  caused by: TypeError: fetch failed')
    expect(entry).toContain('  caused by: Error: connect ECONNREFUSED 127.0.0.1:9')
  })

  it('cancels cleanly: previous snapshot kept, run logged as cancelled', async () => {
    await sync(new FakeListService(makeEmployees(30)))
    const before = fingerprintCache(temp.cache.path)
    const controller = new AbortController()
    const summary = await sync(new FakeListService(makeEmployees(200)), {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.rows >= 20) controller.abort()
      },
    })
    expect(summary.status).toBe('cancelled')
    expect(summary.errorCode).toBe('cancelled')
    expect(summary.error).toMatch(/cancelled/)
    const after = fingerprintCache(temp.cache.path)
    expect(after.snapshotBytes).toBe(before.snapshotBytes)
    expect(after.catalog).toBe(before.catalog)
    expect(readdirSync(temp.cache.snapshotDirectory)).toHaveLength(1)
  })

  it('prepares the commit while the last request is out, and still indexes rows a later pass changed', async () => {
    const rows = makeEmployees(45)
    let moved = false
    const service = new FakeListService(rows, {
      before: (request, fake) => {
        // After the first pass is staged, the second look at page 1 finds a renamed employee: a second pass.
        if (request.page === 1 && fake.requests.filter((r) => r.page === 1).length === 2 && !moved) {
          moved = true
          fake.rows[0] = { ...fake.rows[0], UUID: 'e-renamed', lastName: 'Zebedee' }
        }
        return undefined
      },
    })
    const summary = await sync(service)
    expect(summary).toMatchObject({ status: 'complete', stored: 45 })
    const snapshot = temp.cache.currentSnapshot()!
    const indexes = rawSnapshot(snapshot)
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all()
    expect(indexes).toEqual(['employees_uuid', 'pay_cycle_members_employee'])
    expect(
      rawSnapshot(snapshot)
        .prepare("SELECT count(*) FROM employees WHERE uuid_key = 'e-renamed'")
        .pluck()
        .get(),
    ).toBe(1)
    expect(
      rawSnapshot(snapshot).prepare("SELECT count(*) FROM employees WHERE uuid = 'e-000000'").pluck().get(),
    ).toBe(0)
    // The search index prepared during the first pass is stale: the one stored is built from the final rows.
    const found = new QueryEngine(temp.cache).query({ text: 'zebedee', offset: 0, limit: 10 })
    expect(found.rows.map((row) => row['UUID'])).toEqual(['e-renamed'])
  })

  it('drops employees that a later pass proves gone', async () => {
    let added = 0
    const service = new FakeListService(makeEmployees(60), {
      before: (request, svc) => {
        if (request.index <= 3) {
          svc.rows.unshift({ UUID: `late-${++added}`, firstName: 'L', lastName: 'Late' })
          svc.rows.splice(5, 2)
        }
        return undefined
      },
    })
    const summary = await sync(service)
    expect(summary.status).toBe('complete')
    expect(summary.stored).toBe(service.rows.length)
    expect(storedRows().map((r) => r.uuid)).toEqual(service.rows.map((r) => String(r['UUID'])).sort())
  })

  it('records pay-cycle membership from the filtered lists and from each row’s own field', async () => {
    const rows = makeEmployees(30).map((row, i) => {
      const copy = { ...row }
      if (i % 3 === 0) delete copy['payCycleId']
      return copy
    })
    const service = new FakeListService(rows, {
      before: (request, svc) => {
        if (request.payCycleId !== 'PC-X') return undefined
        const members = svc.rows.slice(0, 12)
        return jsonResponse(200, {
          rows: members.slice((request.page - 1) * 10, request.page * 10),
          totalCount: 12,
          totalPages: 2,
          limit: 10,
          currentPage: request.page,
        })
      },
    })
    const summary = await sync(service, { trackedPayCycles: ['PC-X'] })
    expect(summary.status).toBe('complete')
    const db = rawSnapshot(temp.cache.currentSnapshot())
    const listed = db
      .prepare("SELECT employee_uuid FROM employee_pay_cycles WHERE pay_cycle_id = 'PC-X' ORDER BY 1")
      .pluck()
      .all()
    expect(listed).toEqual(rows.slice(0, 12).map((r) => r['UUID']))
    const own = db.prepare("SELECT count(*) FROM employee_pay_cycles WHERE source = 'row'").pluck().get()
    expect(own).toBe(20)
  })

  it('refuses unusable options before logging a run, by the settings schema and in its words', async () => {
    const problemOf = (schema: Parameters<typeof checkValue>[0], value: unknown): string => {
      const checked = checkValue(schema, value)
      return checked.ok ? 'accepted' : checked.problem
    }
    await expect(sync(new FakeListService([]), { pageSize: 0 })).rejects.toMatchObject({
      code: 'validation',
      message: problemOf(settingsSchema.shape.pageSize, 0),
    })
    await expect(sync(new FakeListService([]), { concurrency: 17 })).rejects.toMatchObject({
      code: 'validation',
      message: 'Parallel requests must be a whole number from 1 to 16.',
    })
    await expect(sync(new FakeListService([]), { baseUrl: 'ftp://x' })).rejects.toMatchObject({
      code: 'config',
      message: `${problemOf(serviceAddressSchema, 'ftp://x')} Check it in Settings.`,
    })
    // A password in the address would travel with every request and into logs: refused like in Settings.
    await expect(
      sync(new FakeListService([]), { baseUrl: 'https://clerk:hunter2@payroll.example/api/' }),
    ).rejects.toThrow('The service address must not contain a user name or password.')
    expect(temp.cache.runs.lastRun()).toBeUndefined()
  })
})
