import { existsSync, readdirSync } from 'node:fs'
import { beforeEach, describe, expect, it } from 'vitest'
import { ChangeHistory } from '../../../../../src/main/core/changes/change-history'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { sameSource, type RunSource } from '../../../../../src/main/core/sync/same-source'
import type { SyncRunOptions } from '../../../../../src/main/core/sync/sync-engine'
import { useTempCache } from '../../../../helpers/temp-cache'
import { syncFromFake } from '../../../../helpers/sync-cache'
import { FakeListService, makeEmployees } from '../../../../helpers/sync-fakes'

const acme: RunSource = {
  environment: 'staging',
  baseUrl: 'https://staging.payroll.example',
  tenantId: 'acme',
}

describe('sameSource', () => {
  it('is the same source only for the same environment, address, tenant and scope', () => {
    expect(sameSource(acme, { ...acme })).toBe(true)
    expect(sameSource(acme, { ...acme, environment: 'production' })).toBe(false)
    expect(sameSource(acme, { ...acme, baseUrl: 'https://payroll.example' })).toBe(false)
    expect(sameSource(acme, { ...acme, tenantId: 'globex' })).toBe(false)
    expect(sameSource(acme, { environment: 'staging', baseUrl: acme.baseUrl })).toBe(false)
    expect(sameSource(acme, { ...acme, statusFilter: '1' })).toBe(false)
    expect(sameSource({ ...acme, statusFilter: '1' }, { ...acme, statusFilter: '1' })).toBe(true)
  })

  it('does not hold against a run what its log did not record', () => {
    // Runs logged before the environment was kept, and the CLI, which does not say it.
    expect(sameSource({ baseUrl: acme.baseUrl, tenantId: 'acme' }, acme)).toBe(true)
    expect(sameSource(acme, { baseUrl: acme.baseUrl, tenantId: 'acme' })).toBe(true)
    expect(sameSource({ ...acme, baseUrl: '' }, acme)).toBe(true)
  })

  it('does not compare Demo’s address, which changes each time RosterDesk starts', () => {
    const demo: RunSource = {
      environment: 'demo',
      baseUrl: 'http://127.0.0.1:41234',
      tenantId: 'tenant-demo',
    }
    expect(sameSource(demo, { ...demo, baseUrl: 'http://127.0.0.1:50555' })).toBe(true)
    expect(sameSource({ baseUrl: 'http://127.0.0.1:41234', tenantId: 'tenant-demo' }, demo)).toBe(true)
    expect(sameSource(demo, { ...demo, environment: 'staging' })).toBe(false)
    expect(sameSource(demo, { ...demo, statusFilter: '1' })).toBe(false)
  })
})

/** A run is compared with the previous complete run only when both read the same source. */
describe('runSync against the previous run of another source', () => {
  const temp = useTempCache()
  let history: ChangeHistory
  beforeEach(() => {
    history = new ChangeHistory({ cache: temp.cache, queries: new QueryEngine(temp.cache) })
  })

  const sync = (service: FakeListService, options: Partial<SyncRunOptions> = {}) =>
    syncFromFake(temp.cache, service, {
      baseUrl: 'https://staging.payroll.example',
      environment: 'staging',
      tenantId: 'acme',
      ...options,
    })
  const logFiles = (): string[] =>
    existsSync(temp.cache.changeLogDirectory) ? readdirSync(temp.cache.changeLogDirectory) : []

  it.each<[string, Partial<SyncRunOptions>]>([
    ['another tenant', { tenantId: 'globex' }],
    ['another environment', { environment: 'production' }],
    ['another service address', { baseUrl: 'https://payroll.example' }],
    ['another scope', { scope: 'active' }],
  ])('counts a sync of %s as a first sync, not as hires and leavers', async (_, other) => {
    const acmeStaff = makeEmployees(30, 'acme')
    expect((await sync(new FakeListService(acmeStaff))).changes).toMatchObject({ firstSync: true, added: 30 })

    // Another company's employees, four of them sharing UUIDs with Acme's (one of those edited).
    const otherStaff = [...makeEmployees(20, 'globex'), ...acmeStaff.slice(0, 4).map((row) => ({ ...row }))]
    otherStaff[20]!['lastName'] = 'Renamed'
    const next = await sync(new FakeListService(otherStaff), other)
    expect(next).toMatchObject({ status: 'complete', stored: 24 })
    expect(next.changes).toMatchObject({
      firstSync: true,
      added: 24,
      removed: 0,
      changed: 0,
      removedSample: [],
      changedSample: [],
    })
    expect(logFiles()).toEqual([])
    expect(history.list()[0]).toMatchObject({ runId: next.id, firstSync: true, entriesKept: false })

    // The run after it, from the same source again, is compared with it.
    const again = await sync(new FakeListService(otherStaff.slice(1)), other)
    expect(again.changes).toMatchObject({ firstSync: false, added: 0, removed: 1, changed: 0 })
  })

  it('compares a run with the previous one of the same source, whatever its page size or pay cycles', async () => {
    const staff = makeEmployees(30)
    await sync(new FakeListService(staff))
    const next = await sync(new FakeListService(staff.slice(2)), { pageSize: 7, trackedPayCycles: ['PC-1'] })
    expect(next.changes).toMatchObject({ firstSync: false, added: 0, removed: 2 })
  })
})
