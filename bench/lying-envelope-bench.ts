import { join } from 'node:path'
import type { SyncRunSummary } from '../src/shared/domain/sync'
import type { AccessTokenSource } from '../src/main/core/api/access-token-source'
import { openCacheDatabase } from '../src/main/core/cache/cache-database'
import { systemClock } from '../src/main/core/clock'
import { runSync } from '../src/main/core/sync/sync-engine'
import type { SyncLimits } from '../src/main/core/sync/sync-engine'
import type { BenchContext, BenchSection } from './bench-kit'
import { ms, table } from './bench-kit'
import { signIn, startSandboxProcess, type SandboxProcess } from './sandbox-process'
import { BENCH_CACHE_KEY } from './bench-cache-key'

const EMPLOYEES = 100_000
const CLAIMED = 1_000_000_000
const PAGE_SIZE = 500
const LATENCY_MS = 20
const CONCURRENCY = 4

interface LyingRun {
  readonly name: string
  readonly summary: SyncRunSummary
  readonly wallMs: number
  readonly peakRssBytes: number
  readonly peakHeapBytes: number
  readonly baseRssBytes: number
}

/** One sync against the lying sandbox, with the process's resident and heap memory sampled every 5 ms. */
async function lyingSync(
  context: BenchContext,
  name: string,
  sandbox: SandboxProcess,
  tokens: AccessTokenSource,
  limits: Partial<SyncLimits>,
): Promise<LyingRun> {
  const cache = openCacheDatabase(join(context.dir, `${name}.db`), { key: BENCH_CACHE_KEY })
  global.gc?.()
  const baseRssBytes = process.memoryUsage().rss
  let peakRssBytes = baseRssBytes
  let peakHeapBytes = 0
  const sample = (): void => {
    const usage = process.memoryUsage()
    peakRssBytes = Math.max(peakRssBytes, usage.rss)
    peakHeapBytes = Math.max(peakHeapBytes, usage.heapUsed)
  }
  const sampler = setInterval(sample, 5)
  try {
    const start = performance.now()
    const summary = await runSync(
      { cache, fetch: sandbox.fetch, tokens, clock: systemClock, random: Math.random },
      { baseUrl: sandbox.baseUrl, pageSize: PAGE_SIZE, concurrency: CONCURRENCY, limits },
    )
    const wallMs = performance.now() - start
    sample()
    if (summary.status !== 'failed')
      throw new Error(`bench: the lying envelope was believed (${summary.status})`)
    context.log(
      `lying-envelope: ${name}: ${ms(wallMs)}, ${summary.requests} requests: ${summary.error ?? ''}`,
    )
    return { name, summary, wallMs, peakRssBytes, peakHeapBytes, baseRssBytes }
  } finally {
    clearInterval(sampler)
    cache.close()
  }
}

const mib = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(0)} MiB`

export const lyingEnvelopeSection: BenchSection = {
  id: 'lying-envelope',
  title: `A lying envelope: ${CLAIMED.toLocaleString('en-US')} employees claimed, ${EMPLOYEES.toLocaleString('en-US')} served`,
  run: async (context) => {
    const sandbox = await startSandboxProcess([
      '--size',
      String(EMPLOYEES),
      '--latency',
      String(LATENCY_MS),
      '--lie-total',
      String(CLAIMED),
    ])
    try {
      const tokens = await signIn(sandbox)
      const runs = [
        await lyingSync(context, 'default ceiling (5,000,000)', sandbox, tokens, {}),
        await lyingSync(context, `ceiling raised to ${CLAIMED.toLocaleString('en-US')}`, sandbox, tokens, {
          maxEmployees: CLAIMED,
        }),
      ]
      const realPages = Math.ceil(EMPLOYEES / PAGE_SIZE)
      return [
        `Sandbox in its own process (\`npm run sandbox -- --size ${EMPLOYEES} --latency ${LATENCY_MS} --lie-total ${CLAIMED}\`): ` +
          `every envelope claims ${CLAIMED.toLocaleString('en-US')} employees (${(CLAIMED / PAGE_SIZE).toLocaleString('en-US')} pages ` +
          `of ${PAGE_SIZE}) while the real list has ${EMPLOYEES.toLocaleString('en-US')} (${realPages} pages); pages past the ` +
          `real end come back with \`rows: []\`. \`runSync\` into a fresh cache, concurrency ${CONCURRENCY}. With the default ` +
          `ceiling the claim is refused at page 1; with the ceiling raised to the claim the run stores the ${realPages} real pages ` +
          'and stops at the first short page. Memory is this process (client and cache; the sandbox runs apart), ' +
          'sampled every 5 ms.',
        '',
        table(
          ['Run', 'Wall time', 'Requests', 'Peak RSS (start)', 'Peak JS heap', 'Outcome'],
          runs.map((run) => [
            run.name,
            ms(run.wallMs),
            String(run.summary.requests),
            `${mib(run.peakRssBytes)} (${mib(run.baseRssBytes)})`,
            mib(run.peakHeapBytes),
            (run.summary.error ?? '').split('. ')[0] ?? '',
          ]),
        ),
        '',
        '- Before issue 12 (as the issue reports it) such a service kept a CLI sync going for over 4 minutes and ' +
          'past 900 MB, walking millions of empty pages.',
      ].join('\n')
    } finally {
      await sandbox.close()
    }
  },
}
