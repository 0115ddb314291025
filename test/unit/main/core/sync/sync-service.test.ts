import { describe, expect, it } from 'vitest'
import type { SyncProgress, SyncRunSummary } from '../../../../../src/shared/domain/sync'
import { SyncService } from '../../../../../src/main/core/sync/sync-service'
import { useTempCache } from '../../../../helpers/temp-cache'
import { FakeListService, FakeTokens, fakeClock, makeEmployees } from '../../../../helpers/sync-fakes'

describe('SyncService', () => {
  const temp = useTempCache()

  const service = (rows = makeEmployees(80)) =>
    new SyncService({
      cache: temp.cache,
      fetch: new FakeListService(rows).fetch,
      tokens: new FakeTokens(),
      clock: fakeClock().clock,
      random: () => 0.5,
    })
  const options = { baseUrl: 'https://payroll.example', pageSize: 10, concurrency: 2 }

  it('runs one sync at a time and reports status before, during and after', async () => {
    const sync = service()
    expect(sync.getStatus()).toEqual({ running: false, employeeCount: 0 })
    const seen: SyncProgress[] = []
    const statuses: boolean[] = []
    const unsubscribe = sync.onProgress((progress) => {
      seen.push(progress)
      statuses.push(sync.getStatus().running)
    })
    const finished: SyncRunSummary[] = []
    sync.onFinished((summary) => finished.push(summary))
    const run = sync.start(options)
    await expect(sync.start(options)).rejects.toMatchObject({ code: 'busy' })
    const summary = await run
    unsubscribe()
    expect(summary.status).toBe('complete')
    expect(finished).toEqual([summary])
    expect(statuses.every(Boolean)).toBe(true)
    expect(seen.length).toBeGreaterThan(1)
    expect(sync.getStatus()).toMatchObject({
      running: false,
      employeeCount: 80,
      lastRun: summary,
      lastComplete: summary,
    })
    await sync.start(options)
    expect(seen.every((p) => p.runId === summary.id)).toBe(true)
  })

  it('begin() answers with the run’s id while it runs; the summary with that id comes when it ends', async () => {
    const sync = service()
    const finished: SyncRunSummary[] = []
    sync.onFinished((summary) => finished.push(summary))
    const started = await sync.begin(options)
    expect(started.runId).toEqual(expect.any(Number))
    expect(sync.isRunning).toBe(true)
    expect(finished).toEqual([])
    await expect(sync.begin(options)).rejects.toMatchObject({ code: 'busy' })
    const summary = await started.finished
    expect(summary).toMatchObject({ id: started.runId, status: 'complete', stored: 80 })
    expect(finished).toEqual([summary])
    expect(sync.isRunning).toBe(false)
  })

  it('begin() rejects a run that cannot start, and is free for the next one', async () => {
    const sync = service()
    await expect(sync.begin({ ...options, pageSize: 0 })).rejects.toMatchObject({ code: 'validation' })
    expect(sync.isRunning).toBe(false)
    expect(temp.cache.runs.lastRun()).toBeUndefined()
    expect((await sync.start(options)).status).toBe('complete')
  })

  it('cancel() stops the running sync and says whether there was one', async () => {
    const sync = service(makeEmployees(500))
    expect(sync.cancel()).toBe(false)
    const run = sync.start(options)
    sync.onProgress(() => sync.cancel())
    const summary = await run
    expect(summary.status).toBe('cancelled')
    expect(sync.getStatus()).toMatchObject({
      running: false,
      employeeCount: 0,
      lastRun: { status: 'cancelled' },
    })
    expect(sync.getStatus().lastComplete).toBeUndefined()
  })

  it('keeps syncing when a progress listener throws', async () => {
    const sync = service()
    sync.onProgress(() => {
      throw new Error('window closed')
    })
    expect((await sync.start(options)).status).toBe('complete')
  })
})
