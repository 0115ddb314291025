import { execFileSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import type { ExportResult, PrintResult } from '../src/shared/domain/export'
import type { EmployeeQuery } from '../src/shared/domain/query'
import type { AppCore } from '../src/main/core/session/create-app-core'
import { CORE_WORKER_IDLE_STOP_MS } from '../src/main/core-host/worker/worker-entry'
import { withCacheKey } from '../src/main/core-host/worker/worker-cache-key'
import { openCacheDatabase } from '../src/main/core/cache/cache-database'
import { systemClock } from '../src/main/core/clock'
import { dispatchInvoke } from '../src/main/core/ipc/dispatch'
import { CACHE_FILE_NAME } from '../src/main/core/settings/profile-store'
import { DEFAULT_SETTINGS } from '../src/main/core/settings/settings-defaults'
import { SyncService } from '../src/main/core/sync/sync-service'
import { silentLogger } from '../src/main/core/log/logger'
import type { CoreJobs } from '../src/main/core-host/worker/core-jobs'
import { StallMonitor } from '../src/main/core-host/worker/stall-monitor'
import { coreWorkerEntry } from '../src/main/core-host/worker/worker-entry'
import { WorkerHost } from '../src/main/core-host/worker/worker-host'
import { workerSyncRunner } from '../src/main/core-host/worker/worker-sync'
import type { StallReport } from '../src/main/core-host/worker/stall-monitor'
import { EmployeeGenerator } from '../src/main/sandbox/data'
import type { BenchContext, BenchSection } from './bench-kit'
import { ms, percentiles, table, verdict } from './bench-kit'
import type { AppMemory } from './app-memory'
import { appCoreOver, benchQueries } from './query-bench'
import { signIn, startSandboxProcess } from './sandbox-process'
import { seedCacheFile } from './seed-cache'
import { BENCH_CACHE_KEY } from './bench-cache-key'

/**
 * The size; MAIN_THREAD_BENCH_EMPLOYEES lowers it for a quick try of the section itself, and
 * ROSTERDESK_BENCH_SEED_CACHE=<dir> keeps the seeded cache for the next run (seed-cache.ts).
 */
const EMPLOYEES = Number(process.env['MAIN_THREAD_BENCH_EMPLOYEES'] ?? 1_000_000)
const SYNCED = 100_000
const TARGET_STALL_MS = 50
const QUERIES = 200

interface Measured {
  readonly action: string
  readonly stall: StallReport
  readonly note: string
}

/** Runs `work` with a stall monitor on this thread, the one that answers IPC in the app (the core process's). */
async function watched<T>(work: () => Promise<T>): Promise<{ value: T; stall: StallReport; ms: number }> {
  const monitor = new StallMonitor()
  monitor.start()
  const start = performance.now()
  try {
    const value = await work()
    return { value, stall: monitor.peek(), ms: performance.now() - start }
  } finally {
    monitor.stop()
  }
}

/**
 * Sends one query as the renderer does: in the app each IPC request reaches the main thread as a task of its
 * own. Without the yield, a loop of queries that need no build resolves on microtasks alone, so the monitor
 * would count a whole run of back-to-back queries (150 of the mix's 200) as one task.
 */
async function query(core: AppCore, input: EmployeeQuery): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve))
  const start = performance.now()
  const result = await dispatchInvoke(core.handlers, 'employees:query', [input])
  structuredClone(result)
  if (!result.ok) throw new Error(`bench: query refused: ${result.error.message}`)
  return performance.now() - start
}

/**
 * Pings the IPC path while heavy work runs, as a clerk scrolling would: each ping is a one-row query answered by
 * this thread. The longest ping says how long a reply waited (the stall monitor says why).
 */
function pinger(core: AppCore): { stop: () => Promise<number> } {
  let running = true
  let longest = 0
  const loop = (async () => {
    while (running) {
      longest = Math.max(longest, await query(core, { limit: 1, offset: 500 }))
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()
  return {
    stop: async () => {
      running = false
      await loop
      return longest
    },
  }
}

async function firstUse(context: BenchContext, core: AppCore, kind: 'sort' | 'search'): Promise<Measured> {
  const generator = new EmployeeGenerator(1, EMPLOYEES)
  const columns = core.queries.listColumns().map((column) => column.key)
  const times: number[] = []
  const ping = pinger(core)
  const { stall, ms: total } = await watched(async () => {
    for (const column of columns) {
      const input: EmployeeQuery =
        kind === 'sort'
          ? { sort: { column, order: 'asc' }, limit: 100, facets: true }
          : { column, text: String(generator.value(column as never, 4242) ?? 'a').slice(0, 3), limit: 100 }
      times.push(await query(core, input))
      context.log(`main-thread: first ${kind} on ${column}: ${ms(times.at(-1) ?? 0)}`)
    }
  })
  const longestPing = await ping.stop()
  return {
    action: `First ${kind} on every column (${columns.length})`,
    stall,
    note: `answers: max ${ms(Math.max(...times))}, total ${ms(total)}; longest reply to a one-row query meanwhile ${ms(longestPing)}`,
  }
}

async function queryMix(context: BenchContext, core: AppCore): Promise<{ row: Measured; summary: string }> {
  const queries = benchQueries(QUERIES, EMPLOYEES)
  const first: number[] = []
  const { stall } = await watched(async () => {
    for (const input of queries) first.push(await query(core, input))
  })
  const warm: number[] = []
  for (const input of queries) warm.push(await query(core, input))
  const cold = percentiles(first)
  const hot = percentiles(warm)
  context.log(`main-thread: query mix first use p95 ${ms(cold.p95)}, warm p95 ${ms(hot.p95)}`)
  return {
    row: {
      action: `${QUERIES}-query mix, first use`,
      stall,
      note: `p95 ${ms(cold.p95)} (≤ 50 ms: ${verdict(cold.p95 <= 50)}), max ${ms(cold.max)}`,
    },
    summary:
      `- ${QUERIES}-query mix at ${EMPLOYEES.toLocaleString('en-US')}: first use p95 ${ms(cold.p95)}, max ` +
      `${ms(cold.max)} (target ≤ 50 ms: ${verdict(cold.p95 <= 50)}); warm p95 ${ms(hot.p95)} ` +
      `(target ≤ 10 ms: ${verdict(hot.p95 <= 10)}).`,
  }
}

/**
 * Sends one request for the whole view (every column) on `channel` as the window would, watched, with a scrolling
 * clerk's one-row queries meanwhile.
 */
async function viewAction<Result>(
  core: AppCore,
  channel: 'export:start' | 'export:print',
  query: EmployeeQuery,
): Promise<{ value: Result; stall: StallReport; took: number; longestPing: number }> {
  const columns = core.queries.listColumns().map((column) => column.key)
  const ping = pinger(core)
  const {
    value,
    stall,
    ms: took,
  } = await watched(async () => {
    const result = await dispatchInvoke(core.handlers, channel, [
      { kind: 'view', query, columns, format: 'xlsx' },
    ])
    if (!result.ok) throw new Error(`bench: ${channel} refused: ${result.error.message}`)
    return result.value as Result
  })
  return { value, stall, took, longestPing: await ping.stop() }
}

async function exportAll(context: BenchContext, core: AppCore, path: string): Promise<Measured> {
  const { value, stall, took, longestPing } = await viewAction<ExportResult>(core, 'export:start', {
    sort: { column: 'hireDate', order: 'desc' },
  })
  if (value.status !== 'written') throw new Error('bench: the export did not write its file')
  context.log(`main-thread: export of ${value.rows} rows in ${ms(took)}`)
  return {
    action: `Export of ${EMPLOYEES.toLocaleString('en-US')} (XLSX, every column, sorted by a column not yet built)`,
    stall,
    note: `${ms(took)}, ${(statSync(path).size / 1024 ** 2).toFixed(0)} MB; longest reply to a one-row query meanwhile ${ms(longestPing)}`,
  }
}

/** "Print…" of the whole view on a fresh core: its page (PRINT_MAX_ROWS rows) built, a printer that prints at once. */
async function printAll(context: BenchContext, core: AppCore): Promise<Measured> {
  const { value, stall, took, longestPing } = await viewAction<PrintResult>(core, 'export:print', {})
  if (value.status !== 'printed') throw new Error('bench: the page was not printed')
  context.log(`main-thread: print of ${value.rows} rows in ${ms(took)}`)
  return {
    action: `Print… of the whole view (its first ${value.rows.toLocaleString('en-US')} rows, every column)`,
    stall,
    note: `${ms(took)} to the printer; longest reply to a one-row query meanwhile ${ms(longestPing)}`,
  }
}

async function syncOf(context: BenchContext, core: AppCore): Promise<Measured> {
  const sandbox = await startSandboxProcess([
    '--size',
    String(SYNCED),
    '--latency',
    '20',
    '--max-page-size',
    '1000',
  ])
  const cache = openCacheDatabase(join(context.dir, 'synced.sqlite'), { key: BENCH_CACHE_KEY })
  const worker = new WorkerHost<CoreJobs>(withCacheKey(coreWorkerEntry(), BENCH_CACHE_KEY), {
    name: 'core worker',
  })
  try {
    const tokens = await signIn(sandbox)
    // As the app core wires it: the run on the core worker, this thread's fetch and tokens answering its calls.
    const deps = { cache, fetch: sandbox.fetch, tokens, clock: systemClock, random: Math.random }
    const sync = new SyncService(deps, workerSyncRunner(worker, { ...deps, logger: silentLogger }))
    const ping = pinger(core)
    const {
      value: summary,
      stall,
      ms: took,
    } = await watched(() =>
      sync.start({
        baseUrl: sandbox.baseUrl,
        pageSize: DEFAULT_SETTINGS.pageSize,
        pageSizing: 'largest-served',
        concurrency: 4,
      }),
    )
    const longestPing = await ping.stop()
    if (summary.status !== 'complete') throw new Error(`bench: the sync ended ${summary.status}`)
    context.log(`main-thread: sync of ${summary.stored} in ${ms(took)}`)
    return {
      action: `Sync of ${SYNCED.toLocaleString('en-US')} (sandbox, 20 ms latency, concurrency 4)`,
      stall,
      note: `${ms(took)}; longest reply to a one-row query meanwhile ${ms(longestPing)}`,
    }
  } finally {
    await worker.stop()
    cache.close()
    await sandbox.close()
  }
}

/**
 * The app core's memory after the query mix, measured in a process of its own (bench/app-memory.ts): this one has
 * seeded a million rows and run other sections, which its allocator keeps counting. In the app that is the core
 * process's memory; the main process's own is the query-process section's figure.
 */
function appMemoryNote(dataDir: string): string {
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'app-memory.ts'), dataDir, String(EMPLOYEES)],
    { cwd: join(__dirname, '..'), encoding: 'utf8', maxBuffer: 1024 * 1024 },
  )
  const memory = JSON.parse(output.trim().split('\n').pop() ?? '{}') as AppMemory
  const mb = (value: number) => `${value.toFixed(0)} MB`
  return (
    `- The app core's memory after the mix (a fresh process: the app core opened, its first rows, the mix first ` +
    `use and warm, a second of quiet): ${mb(memory.rssMb)} RSS; once the core worker has ended for lack of ` +
    `work (${CORE_WORKER_IDLE_STOP_MS / 1000} s later): ${mb(memory.restingRssMb)}. In the app this is the core ` +
    `process (a utility process); Electron's main process only routes to it, and its memory is measured in the ` +
    `query-process section below (the ≤ 300 MB target). The thread that answers queries holds ` +
    `${mb(memory.heapUsedMb)} of JS heap and ${mb(memory.externalMb)} of typed arrays (the snapshot's index, the ` +
    `sort orders and column indexes the mix built); the process held ${mb(memory.startRssMb)} before the app core ` +
    `was created (the runtime, tsx and the bench's modules; the packaged app loads no tsx). The difference between ` +
    `the two figures is the core worker (a thread of the same process: its heap, SQLite's caches).`
  )
}

export const mainThreadSection: BenchSection = {
  id: 'main-thread',
  title: `The thread that answers IPC, at ${EMPLOYEES.toLocaleString('en-US')} employees`,
  run: async (context) => {
    const dataDir = join(context.dir, 'app')
    context.log(`main-thread: storing ${EMPLOYEES.toLocaleString('en-US')} employees`)
    const seeded = await seedCacheFile(join(dataDir, 'cache', CACHE_FILE_NAME), EMPLOYEES)
    context.log(`main-thread: ${seeded === 'reused' ? 'copied a kept seeded cache' : 'seeded'}`)
    const memory = appMemoryNote(dataDir)
    const exportPath = join(context.dir, 'everyone.xlsx')
    const open = () =>
      appCoreOver(dataDir, { chooseExportPath: async () => exportPath, printPage: async () => 'printed' })
    const rows: Measured[] = []
    const notes: string[] = []

    const start = performance.now()
    let core = await open()
    const firstRows = await query(core, { limit: 100, facets: true })
    const opened = performance.now() - start
    notes.push(
      `- Opening the app core on the cache to the first rows (core open + first query): ${ms(opened)} ` +
        `(target ≤ 1 s: ${verdict(opened <= 1000)}; the first query ${ms(firstRows)}).`,
    )
    try {
      const mix = await queryMix(context, core)
      rows.push(mix.row)
      notes.push(mix.summary, memory)
      // A fresh core: nothing built yet, as after a restart.
      await core.close()
      core = await open()
      await query(core, { limit: 100 })
      rows.push(await firstUse(context, core, 'sort'))
      await core.close()
      core = await open()
      await query(core, { limit: 100 })
      rows.push(await firstUse(context, core, 'search'))
      rows.push(await syncOf(context, core))
      await core.close()
      core = await open()
      await query(core, { limit: 100 })
      rows.push(await exportAll(context, core, exportPath))
      await core.close()
      core = await open()
      await query(core, { limit: 100 })
      rows.push(await printAll(context, core))
    } finally {
      await core.close()
    }
    const worst = Math.max(...rows.map((row) => row.stall.longestMs))
    return [
      'Each action runs as the app runs it, through the app core’s own IPC handlers (`dispatchInvoke`), while a ' +
        '`StallMonitor` (a 2 ms drift probe, `core-host/worker/stall-monitor.ts`) on this thread, the one that answers ' +
        'IPC in the app (the core process’s main thread, to which Electron’s main routes each request: its own ' +
        'longest task is in the query-process section), records the longest time it was held; a one-row query is sent every 20 ms meanwhile, as a ' +
        'scrolling clerk would. Opening snapshot indexes, first-use builds (sort orders, "Search in" column ' +
        'indexes), exports, the page "Print…" prints and the sync run on the core worker (ARCHITECTURE.md, "Runtimes and threads"). The probe cannot tell ' +
        `a task from the OS running other processes instead: on a loaded machine its figures are an upper bound. Load average at the start: ${loadavg()[0]?.toFixed(2)} on a shared machine.`,
      '',
      table(
        ['Action', 'Longest main-thread task', 'Tasks over 50 ms', 'Target ≤ 50 ms', 'Notes'],
        rows.map((row) => [
          row.action,
          ms(row.stall.longestMs),
          String(row.stall.over50ms),
          verdict(row.stall.longestMs <= TARGET_STALL_MS),
          row.note,
        ]),
      ),
      '',
      `- Longest main-thread task over all of them: ${ms(worst)} (target ≤ ${TARGET_STALL_MS} ms: ${verdict(worst <= TARGET_STALL_MS)}).`,
      ...notes,
    ].join('\n')
  },
}
