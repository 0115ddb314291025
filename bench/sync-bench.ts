import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { SyncRunSummary } from '../src/shared/domain'
import type { AccessTokenSource } from '../src/main/core/auth/access-token-source'
import { openCacheDatabase } from '../src/main/core/cache/cache-database'
import { systemClock } from '../src/main/core/clock'
import { EMPLOYEE_LIST, ListClient } from '../src/main/core/api/list-client'
import { walkList } from '../src/main/core/sync/list-walker'
import { runSync } from '../src/main/core/sync/sync-engine'
import type { BenchContext, BenchSection } from './bench-kit'
import { ms, table, verdict } from './bench-kit'
import { signIn, startSandboxProcess } from './sandbox-process'

const EMPLOYEES = 100_000
const PAGE_SIZE = 500
const LATENCY_MS = 100
const CONCURRENCY = 4
/** Runs of the concurrent sync; the median is compared with the targets (this machine is shared and noisy). */
const RUNS = 3

interface TimedRun {
  readonly summary: SyncRunSummary
  readonly wallMs: number
  /** From the last page staged (the 'committing' phase) to the snapshot swapped in. */
  readonly finishingMs: number
  /** Longest the event loop was blocked during the run (what an Electron window would feel). */
  readonly maxStallMs: number
}

async function timedSync(
  context: BenchContext,
  name: string,
  baseUrl: string,
  tokens: AccessTokenSource,
  concurrency: number,
): Promise<TimedRun> {
  const cache = openCacheDatabase(join(context.dir, `${name}.db`))
  const delay = monitorEventLoopDelay({ resolution: 5 })
  try {
    delay.enable()
    const start = performance.now()
    let committing = 0
    const summary = await runSync(
      { cache, fetch, tokens, clock: systemClock, random: Math.random },
      {
        baseUrl,
        pageSize: PAGE_SIZE,
        concurrency,
        onProgress: (progress) => {
          if (progress.phase === 'committing') committing = performance.now()
        },
      },
    )
    const end = performance.now()
    const wallMs = end - start
    delay.disable()
    if (summary.status !== 'complete' || summary.stored !== EMPLOYEES) {
      throw new Error(`bench sync ${name} did not complete: ${summary.status} ${summary.error ?? ''}`)
    }
    context.log(`sync: ${name}: ${ms(wallMs)} (${summary.requests} requests)`)
    return { summary, wallMs, finishingMs: end - committing, maxStallMs: delay.max / 1e6 }
  } finally {
    cache.close()
  }
}

/**
 * The same requests with nothing stored: the walker over the list client (fetch, JSON.parse, envelope checks,
 * completeness) and an empty page handler. What the sandbox and the network allow on this machine right now.
 */
async function networkOnly(
  context: BenchContext,
  baseUrl: string,
  tokens: AccessTokenSource,
  run: number,
): Promise<number> {
  const client = new ListClient({
    endpoint: EMPLOYEE_LIST,
    baseUrl,
    fetch,
    tokens,
    clock: systemClock,
    random: Math.random,
  })
  const start = performance.now()
  const result = await walkList(client, {
    pageSize: PAGE_SIZE,
    concurrency: CONCURRENCY,
    maxPasses: 3,
    onPage: () => undefined,
  })
  const wallMs = performance.now() - start
  if (result.totalCount !== EMPLOYEES) throw new Error('bench: network-only pass saw the wrong count')
  context.log(`sync: network-only-${run}: ${ms(wallMs)}`)
  return wallMs
}

export const syncSection: BenchSection = {
  id: 'sync',
  title: `Sync of ${EMPLOYEES.toLocaleString('en-US')} employees`,
  run: async (context) => {
    const sandbox = await startSandboxProcess([
      '--size',
      String(EMPLOYEES),
      '--latency',
      String(LATENCY_MS),
      '--max-page-size',
      '1000',
    ])
    try {
      const tokens = await signIn(sandbox)
      // One unmeasured run warms the sandbox's caches and both processes' JIT, as a long-running app would be.
      await timedSync(context, 'warm-up', sandbox.baseUrl, tokens, CONCURRENCY)
      const runs: TimedRun[] = []
      const bare: number[] = []
      for (let i = 0; i < RUNS; i++) {
        bare.push(await networkOnly(context, sandbox.baseUrl, tokens, i + 1))
        runs.push(await timedSync(context, `concurrent-${i + 1}`, sandbox.baseUrl, tokens, CONCURRENCY))
      }
      const bareMedian = [...bare].sort((a, b) => a - b)[Math.floor(bare.length / 2)] ?? 0
      const sequential = await timedSync(context, 'sequential', sandbox.baseUrl, tokens, 1)
      const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs)
      const median = sorted[Math.floor(sorted.length / 2)] as TimedRun
      const pages = median.summary.pages
      const floorMs = (pages * LATENCY_MS) / CONCURRENCY
      const floorRatio = median.wallMs / floorMs
      const speedup = sequential.wallMs / median.wallMs
      return [
        `Sandbox in its own process (\`npm run sandbox -- --size ${EMPLOYEES} --latency ${LATENCY_MS}\`), ` +
          `page size ${PAGE_SIZE}, ${LATENCY_MS} ms added to every list request, through \`runSync\` into a fresh ` +
          `cache file (first sync: every row written, UUID index built, file fsynced, snapshot swapped in). ` +
          `Network floor = pages × latency ÷ concurrency = ${pages} × ${LATENCY_MS} ms ÷ ${CONCURRENCY} = ${ms(floorMs)}. ` +
          `The sequential client is the same engine with one request at a time. Median of ${RUNS} runs after one warm-up run, ` +
          `which also fills the sandbox's cache of serialised pages (as a real service answers from its database, ` +
          `the stand-in does not rebuild 500 rows of JSON per request on the cores the client runs on).`,
        '',
        table(
          ['Client', 'Wall time', 'Requests', 'vs floor', 'Commit phase', 'Longest event-loop stall'],
          [
            ...runs.map((run, i) => [
              `concurrency ${CONCURRENCY}, run ${i + 1}`,
              ms(run.wallMs),
              String(run.summary.requests),
              `${(run.wallMs / floorMs).toFixed(3)}×`,
              ms(run.finishingMs),
              ms(run.maxStallMs),
            ]),
            ...bare.map((wallMs, i) => [
              `network only (no storage), run ${i + 1}`,
              ms(wallMs),
              '',
              `${(wallMs / floorMs).toFixed(3)}×`,
              '',
              '',
            ]),
            [
              'sequential (concurrency 1)',
              ms(sequential.wallMs),
              String(sequential.summary.requests),
              `${(sequential.wallMs / floorMs).toFixed(3)}×`,
              ms(sequential.finishingMs),
              ms(sequential.maxStallMs),
            ],
          ],
        ),
        '',
        `- Median concurrent sync: ${ms(median.wallMs)} = ${floorRatio.toFixed(3)}× the floor; target ≤ 1.1×: ${verdict(floorRatio <= 1.1)}`,
        `- Speed-up over the sequential client: ${speedup.toFixed(2)}×; target ≥ 3×: ${verdict(speedup >= 3)}`,
        `- Network-only median ${ms(bareMedian)} = ${(bareMedian / floorMs).toFixed(3)}× the floor: the same walk with ` +
          `nothing stored (HTTP, the client's JSON parsing and envelope checks, and the extra round below). Storing ` +
          `everything adds ${(((median.wallMs - bareMedian) / bareMedian) * 100).toFixed(1)}% to it.`,
        `- The requests include one second look at page 1 per list (the completeness check): ${pages + 1} requests at ` +
          `${CONCURRENCY} at a time are ${Math.ceil((pages + 1) / CONCURRENCY)} rounds, so no complete client can go below ` +
          `${ms(Math.ceil((pages + 1) / CONCURRENCY) * LATENCY_MS)} here. The SQL and search indexes are built while that ` +
          'request is out; the commit phase is what is left after it: change report, seal (fsync), the swap.',
        `- Longest event-loop stall: the longest the JavaScript thread was busy in one go during the run (what an ` +
          'Electron window would feel); writes happen one page (one short transaction) at a time on that thread.',
      ].join('\n')
    } finally {
      await sandbox.close()
    }
  },
}
