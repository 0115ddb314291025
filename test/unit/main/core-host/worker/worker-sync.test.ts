import { statSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SyncProgress, SyncRunSummary } from '../../../../../src/shared/domain/sync'
import { systemClock } from '../../../../../src/main/core/clock'
import { NetworkFailureError } from '../../../../../src/main/core/net/network-failure'
import { silentLogger } from '../../../../../src/main/core/log/logger'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { SnapshotReader } from '../../../../../src/main/core/snapshot/snapshot-reader'
import { SyncService } from '../../../../../src/main/core/sync/sync-service'
import type { CoreJobs } from '../../../../../src/main/core-host/worker/core-jobs'
import { coreWorkerEntry } from '../../../../../src/main/core-host/worker/worker-entry'
import { WorkerHost } from '../../../../../src/main/core-host/worker/worker-host'
import { workerSyncRunner } from '../../../../../src/main/core-host/worker/worker-sync'
import { useTempCache } from '../../../../helpers/temp-cache'
import { FakeListService, FakeTokens, endlessListPage, makeEmployees } from '../../../../helpers/sync-fakes'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'
import { withCacheKey } from '../../../../../src/main/core-host/worker/worker-cache-key'

/**
 * Syncs run on the core worker over a writer connection of its own, while this thread's (injected) fetch and
 * tokens answer its requests: the same runs, summaries and snapshots as a sync on this thread.
 */
describe('syncs on the core worker', () => {
  let host: WorkerHost<CoreJobs>
  const temp = useTempCache()
  const options = { baseUrl: 'https://payroll.example', pageSize: 10, concurrency: 2 }

  beforeAll(() => {
    host = new WorkerHost<CoreJobs>(withCacheKey(coreWorkerEntry(), TEST_CACHE_KEY), { name: 'core worker' })
  })
  afterAll(async () => {
    await host.stop()
  })

  function service(list: FakeListService, tokens = new FakeTokens()): SyncService {
    const deps = { cache: temp.cache, fetch: list.fetch, tokens, clock: systemClock, random: Math.random }
    return new SyncService(deps, workerSyncRunner(host, { ...deps, logger: silentLogger }))
  }

  it('lists, proves and commits every employee; this thread sees the new snapshot', async () => {
    const list = new FakeListService(makeEmployees(230))
    const sync = service(list)
    const seen: SyncProgress[] = []
    sync.onProgress((progress) => seen.push(progress))
    const { runId, finished } = await sync.begin(options)
    const summary = await finished
    expect(summary).toMatchObject({ id: runId, status: 'complete', totalCount: 230, stored: 230 })
    expect(seen.length).toBeGreaterThan(1)
    expect(seen.every((progress) => progress.runId === runId)).toBe(true)
    expect(list.requests.length).toBeGreaterThanOrEqual(24)
    expect(sync.getStatus()).toMatchObject({ running: false, employeeCount: 230, lastComplete: summary })
    expect(new QueryEngine(temp.cache).query({ limit: 5 }).total).toBe(230)
  })

  it('adopts the record of the snapshot its worker sealed, so this thread opens it without the quick_check', async () => {
    const list = new FakeListService(makeEmployees(60))
    const deps = {
      cache: temp.cache,
      fetch: list.fetch,
      tokens: new FakeTokens(),
      clock: systemClock,
      random: Math.random,
    }
    const inputs: unknown[] = []
    const telling = {
      run: (...args: Parameters<WorkerHost<CoreJobs>['run']>) => {
        inputs.push(args[1])
        return host.run(...args)
      },
    } as unknown as WorkerHost<CoreJobs>
    const runner = workerSyncRunner(telling, { ...deps, logger: silentLogger })
    const summary = await new SyncService(deps, runner).start(options)
    expect(summary.status).toBe('complete')
    // The record travelled back with the run's result: the file the worker committed, as it was just sealed.
    const current = temp.cache.currentSnapshotInfo()
    const sealed = temp.cache.sealedSnapshot
    const stats = statSync(current?.path ?? '')
    expect(sealed).toEqual({ path: current?.path, checked: { size: stats.size, mtimeMs: stats.mtimeMs } })
    // So this thread's open skips the whole-file check.
    const open = vi.spyOn(SnapshotReader, 'open')
    try {
      expect(temp.cache.currentSnapshot()?.runId).toBe(summary.id)
      expect(open).toHaveBeenCalledWith(current?.path, TEST_CACHE_KEY, summary.id, expect.any(Function), {
        alreadyChecked: sealed?.checked,
      })
    } finally {
      open.mockRestore()
    }
    // The next run is told of the seal, so its worker does not read the whole base again before its first
    // request; it ends with the record of its own snapshot.
    const next = await new SyncService(deps, runner).start(options)
    expect(next.status).toBe('complete')
    expect(inputs).toEqual([expect.not.objectContaining({ sealed }), expect.objectContaining({ sealed })])
    expect(temp.cache.sealedSnapshot?.path).toBe(temp.cache.currentSnapshotInfo()?.path)
    expect(temp.cache.sealedSnapshot?.path).not.toBe(sealed?.path)
    // A run that fails ends with no record, and this thread adopts that: it may have failed on the base it was
    // told to trust (damaged since its seal), which the next run then checks.
    const failing = new FakeListService(makeEmployees(60), {
      before: () => new Response('{"rows": "not a list"}', { status: 200 }),
    })
    const failed = await new SyncService(
      deps,
      workerSyncRunner(host, { ...deps, fetch: failing.fetch, logger: silentLogger }),
    ).start(options)
    expect(failed.status).toBe('failed')
    expect(temp.cache.sealedSnapshot).toBeNull()
  })

  it('refuses a page over the largest allowed while this thread reads it, naming the page and the setting', async () => {
    const endless = endlessListPage()
    const list = new FakeListService(makeEmployees(40), {
      before: (request) => (request.page === 2 ? endless.response() : undefined),
    })
    const summary = await service(list).start({ ...options, concurrency: 1, limits: { maxPageMegabytes: 1 } })
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'service' })
    expect(summary.error).toMatch(
      /answered page 2 of the employee list with more than 1 MB, the most RosterDesk accepts for one page.*Lower the page size in Settings/,
    )
    // Never retried, and read only to just past the limit: about 1 MB in 13 kB chunks, never the unending rest.
    expect(list.requests.filter((request) => request.page === 2)).toHaveLength(1)
    expect(endless.pulled()).toBeLessThan(100)
    // A declared length over the limit is refused before any of the body is read.
    const declared = new FakeListService(makeEmployees(40), {
      before: (request) =>
        request.page === 1
          ? new Response('{}', { status: 200, headers: { 'content-length': String(500 * 1024 * 1024) } })
          : undefined,
    })
    const refused = await service(declared).start({ ...options, limits: { maxPageMegabytes: 1 } })
    expect(refused.error).toMatch(/answered page 1 of the employee list with more than 1 MB/)
  })

  it('refreshes a refused token through this thread’s token source', async () => {
    const tokens = new FakeTokens()
    const list = new FakeListService(makeEmployees(40), {
      before: (request) =>
        request.index === 2 && request.headers.get('authorization') === 'Bearer token-1'
          ? new Response('{}', { status: 401 })
          : undefined,
    })
    const summary = await service(list, tokens).start(options)
    expect(summary.status).toBe('complete')
    expect(tokens.refreshes).toBe(1)
  })

  it('hands a redirect back whole to the worker, which follows it within the origin only (issue 22, fault 4)', async () => {
    const list = new FakeListService(makeEmployees(30))
    const sent: Array<{ url: string; redirect: RequestInit['redirect']; authorization: string | null }> = []
    let elsewhere = 'https://payroll.example'
    // The host's fetch: /employees/list has moved to /v2/…; a redirect it follows itself would show as no 307 here.
    const hostFetch = async (input: string, init?: RequestInit): Promise<Response> => {
      const url = new URL(input)
      sent.push({
        url: input,
        redirect: init?.redirect,
        authorization: new Headers(init?.headers).get('authorization'),
      })
      if (url.pathname === '/employees/list') {
        return new Response('{"moved":true}', {
          status: 307,
          headers: { location: `${elsewhere}/v2/employees/list${url.search}` },
        })
      }
      return list.fetch(input, init)
    }
    const deps = {
      cache: temp.cache,
      fetch: hostFetch,
      tokens: new FakeTokens(),
      clock: systemClock,
      random: Math.random,
    }
    const sync = (): Promise<SyncRunSummary> =>
      new SyncService(deps, workerSyncRunner(host, { ...deps, logger: silentLogger })).start(options)

    const summary = await sync()
    expect(summary).toMatchObject({ status: 'complete', totalCount: 30, stored: 30 })
    expect(sent.every((request) => request.redirect === 'manual')).toBe(true)
    const moved = sent.filter((request) => request.url.includes('/v2/'))
    expect(moved.length).toBeGreaterThan(0)
    expect(moved.every((request) => request.authorization === 'Bearer token-1')).toBe(true)

    // Moved to another origin: refused by its origin, the Bearer token never sent there, the cache as it was.
    elsewhere = 'https://collector.example'
    sent.length = 0
    const refused = await sync()
    expect(refused).toMatchObject({ status: 'failed', errorCode: 'config' })
    expect(refused.error).toContain('redirected to https://collector.example,')
    expect(sent.filter((request) => request.url.startsWith(elsewhere))).toEqual([])
    expect(temp.cache.employeeCount()).toBe(30)
  })

  it('cancels: the run ends cancelled and the previous snapshot stays', async () => {
    await service(new FakeListService(makeEmployees(50))).start(options)
    const sync = service(new FakeListService(makeEmployees(500)))
    sync.onProgress(() => sync.cancel())
    const summary = await sync.start(options)
    expect(summary.status).toBe('cancelled')
    expect(temp.cache.employeeCount()).toBe(50)
  })

  it('reports a service that cannot be reached as the network failure it is, after retrying', async () => {
    const list = new FakeListService(makeEmployees(20), {
      before: () => Promise.reject(new TypeError('fetch failed')),
    })
    const sync = service(list)
    const summary = await sync.start({ ...options, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } })
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'network' })
    expect(list.requests.length).toBeGreaterThanOrEqual(2)
  })

  it('keeps the cause this thread’s fetch named (offline, a proxy, a certificate): no retry of what cannot pass', async () => {
    // What electronNetFetch throws when the OS says offline.
    const list = new FakeListService(makeEmployees(20), {
      before: () => Promise.reject(new NetworkFailureError('net::ERR_INTERNET_DISCONNECTED', {})),
    })
    const sync = service(list)
    const summary = await sync.start({ ...options, retry: { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 2 } })
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'offline' })
    // The first requests of the run (two at a time) and not one retry.
    expect(list.requests.length).toBeLessThanOrEqual(options.concurrency)
  })

  it('refuses options that cannot work before anything is logged, as on this thread', async () => {
    await expect(service(new FakeListService([])).begin({ ...options, pageSize: 0 })).rejects.toMatchObject({
      code: 'validation',
    })
    expect(temp.cache.runs.lastRun()).toBeUndefined()
  })
})
