import { join, resolve } from 'node:path'
import { threadId } from 'node:worker_threads'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import type { Logger } from '../../../../../src/main/core/log/logger'
import { WorkerHost, type WorkerEntry } from '../../../../../src/main/core-host/worker/worker-host'
import { freshNodeBundles } from '../../../../helpers/fresh-bundles'
import type { TestJobs } from '../../../../helpers/worker-fixtures/test-jobs'

/** The fixture worker, bundled once per change (as the app's worker is bundled), so each start loads one file. */
let entry: WorkerEntry
beforeAll(async () => {
  const bundle = await freshNodeBundles({
    entries: { 'test-worker': 'test/helpers/worker-fixtures/test-worker.ts' },
    outdir: resolve(__dirname, '../../../../../.tmp/test-build/worker-fixture'),
    external: 'all-packages',
  })
  entry = { file: bundle('test-worker'), execArgv: [] }
})
const hosts: WorkerHost<TestJobs>[] = []

function host(cancelGraceMs = 2_000, logger?: Logger, idleStopMs?: number): WorkerHost<TestJobs> {
  const created = new WorkerHost<TestJobs>(entry, {
    name: 'test worker',
    cancelGraceMs,
    ...(logger === undefined ? {} : { logger }),
    ...(idleStopMs === undefined ? {} : { idleStopMs }),
  })
  hosts.push(created)
  return created
}

async function failure(promise: Promise<unknown>): Promise<RosterDeskError> {
  const error: unknown = await promise.then(
    () => new Error('expected the job to fail'),
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(RosterDeskError)
  return error as RosterDeskError
}

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()))
})

describe('WorkerHost', () => {
  it('runs a job on another thread and answers with its output', async () => {
    const workers = host()
    const answer = await workers.run('echo', { text: 'Müller' })
    expect(answer.text).toBe('Müller')
    expect(answer.threadId).not.toBe(threadId)
    expect(workers.activeJobs).toBe(0)
  })

  it('writes a job’s warning through the host’s logger, redacted and with the error’s detail', async () => {
    const entries: Array<{ level: string; message: string }> = []
    const at = (level: string) => (message: string) => entries.push({ level, message })
    const logger: Logger = { info: at('info'), warn: at('warn'), error: at('error') }
    const token = 'eyJhbGciOiJIUzI1NiJ9.secret-part'
    await host(2_000, logger).run('warn', { token })
    // The entry is posted before the job's answer, and messages arrive in order.
    expect(entries).toHaveLength(1)
    const [entry] = entries
    expect(entry?.level).toBe('warn')
    expect(entry?.message).toMatch(/^test worker: The test job saw something odd\n/)
    expect(entry?.message).toContain('Bearer [redacted]')
    expect(entry?.message).not.toContain('secret-part')
  })

  it('moves typed arrays the job transfers, intact', async () => {
    const squares = await host().run('squares', { count: 1000 })
    expect(squares).toBeInstanceOf(Uint32Array)
    expect(squares.length).toBe(1000)
    expect(squares[999]).toBe(999 * 999)
  })

  it('runs several jobs at once and reports each one’s progress to its own listener', async () => {
    const workers = host()
    const seen: Record<string, number[]> = { a: [], b: [] }
    const [a, b] = await Promise.all([
      workers.run('count', { to: 3 }, { onProgress: (value) => seen['a']?.push(value) }),
      workers.run('count', { to: 5 }, { onProgress: (value) => seen['b']?.push(value) }),
    ])
    expect([a, b]).toEqual([3, 5])
    expect(seen).toEqual({ a: [1, 2, 3], b: [1, 2, 3, 4, 5] })
  })

  it('cancels a job through its signal: the job stops and the run rejects as cancelled', async () => {
    const workers = host()
    const controller = new AbortController()
    const started = new Promise<void>((resolve) => {
      void failure(
        workers.run('until-cancelled', null, { signal: controller.signal, onProgress: () => resolve() }),
      ).then((error) => outcome.push(error))
    })
    const outcome: RosterDeskError[] = []
    await started
    controller.abort()
    await expect.poll(() => outcome.length).toBe(1)
    expect(outcome[0]?.code).toBe('cancelled')
    // The worker lives on for the next job.
    expect((await workers.run('echo', { text: 'after' })).text).toBe('after')
  })

  it('refuses at once a job whose signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    expect((await failure(host().run('echo', { text: 'x' }, { signal: controller.signal }))).code).toBe(
      'cancelled',
    )
  })

  it('ends a worker whose job ignores a cancel, and starts a fresh one for the next job', async () => {
    const workers = host(200)
    const controller = new AbortController()
    const run = workers.run('ignores-cancel', { ms: 5_000 }, { signal: controller.signal })
    setTimeout(() => controller.abort(), 100)
    const started = Date.now()
    expect((await failure(run)).code).toBe('cancelled')
    expect(Date.now() - started).toBeLessThan(3_000)
    expect((await workers.run('echo', { text: 'fresh' })).text).toBe('fresh')
  })

  it('passes a RosterDeskError from the worker through as itself', async () => {
    const error = await failure(host().run('refuse', null))
    expect(error.code).toBe('busy')
    expect(error.message).toBe('The test worker refuses.')
    expect(error.detail).toBe('on purpose')
  })

  it('turns any other error in a job into an internal error with its stack as detail', async () => {
    const error = await failure(host().run('throw-plain', null))
    expect(error.code).toBe('internal')
    expect(error.message).not.toContain('a bug in the worker')
    expect(error.detail).toContain('TypeError: a bug in the worker')
  })

  it('turns a worker crash into a typed error for every job it was running, and recovers', async () => {
    const workers = host()
    const waiting = failure(workers.run('until-cancelled', null))
    const crash = await failure(workers.run('crash', null))
    expect(crash.code).toBe('internal')
    expect(crash.detail).toContain('exited with code 3')
    expect((await waiting).code).toBe('internal')
    expect(workers.activeJobs).toBe(0)
    expect((await workers.run('echo', { text: 'again' })).text).toBe('again')
  })

  it('reports a worker file that cannot start as a typed error, not a crash of this thread', async () => {
    const broken = new WorkerHost<TestJobs>(
      { file: join(__dirname, '../../../../helpers/worker-fixtures/no-such-worker.js'), execArgv: [] },
      { name: 'missing worker' },
    )
    hosts.push(broken)
    const error = await failure(broken.run('echo', { text: 'x' }))
    expect(error.code).toBe('internal')
  })

  it('answers a job’s calls with this thread’s handlers, and passes their errors back typed', async () => {
    const workers = host()
    const asked: number[] = []
    const sum = await workers.run(
      'ask',
      { numbers: [1, 2, 3] },
      {
        calls: {
          double: async (value) => {
            asked.push(value)
            return { value: value * 2 }
          },
        },
      },
    )
    expect(sum).toBe(12)
    expect(asked).toEqual([1, 2, 3])
    const refused = await failure(
      workers.run(
        'ask',
        { numbers: [5] },
        { calls: { double: () => Promise.reject(new RosterDeskError('not-signed-in', 'Sign in again.')) } },
      ),
    )
    expect(refused).toMatchObject({ code: 'not-signed-in', message: 'Sign in again.' })
    // A job may only call what its run answers.
    expect((await failure(workers.run('ask', { numbers: [1] }))).code).toBe('internal')
  })

  it('ends a worker left idle for idleStopMs, quietly, and starts a fresh one for the next job', async () => {
    const entries: string[] = []
    const logger: Logger = {
      info: (message) => entries.push(message),
      warn: (message) => entries.push(message),
      error: (message) => entries.push(message),
    }
    const workers = host(2_000, logger, 300)
    const first = (await workers.run('echo', { text: 'a' })).threadId
    // A job longer than the idle time keeps the worker: the clock only runs while no job does.
    expect(await workers.run('ignores-cancel', { ms: 600 })).toBe('finished')
    expect((await workers.run('echo', { text: 'b' })).threadId).toBe(first)
    await vi.waitFor(() => expect(workers.isRunning).toBe(false), { timeout: 15_000 })
    const second = (await workers.run('echo', { text: 'c' })).threadId
    expect(second).not.toBe(first)
    expect(entries).toEqual([])
  })

  it('keeps an idle worker while a hold is taken, and lets it end once released', async () => {
    // The idle clock is the test's: a hold proves itself over far more than idleStopMs without a real wait.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const workers = host(2_000, undefined, 200)
      const first = (await workers.run('echo', { text: 'a' })).threadId
      const release = workers.hold()
      vi.advanceTimersByTime(10_000)
      expect(workers.isRunning).toBe(true)
      expect((await workers.run('echo', { text: 'b' })).threadId).toBe(first)
      release()
      release()
      vi.advanceTimersByTime(199)
      expect(workers.isRunning).toBe(true)
      vi.advanceTimersByTime(1)
      expect(workers.isRunning).toBe(false)
      expect((await workers.run('echo', { text: 'c' })).threadId).not.toBe(first)
    } finally {
      vi.useRealTimers()
    }
  })

  it('rejects the jobs still running when stopped', async () => {
    const workers = host()
    const waiting = failure(workers.run('until-cancelled', null))
    await workers.stop()
    expect((await waiting).code).toBe('cancelled')
  })
})
