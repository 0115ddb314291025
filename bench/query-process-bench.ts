import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { CACHE_FILE_NAME } from '../src/main/core/settings/profile-store'
import { CORE_WORKER_IDLE_STOP_MS } from '../src/main/core-host/worker/worker-entry'
import type { BenchSection } from './bench-kit'
import { ms, percentiles, table, verdict } from './bench-kit'
import type { QueryProcessReport } from './query-process-router'
import { ensureBuiltBundles, MAIN_BUNDLE } from '../test/helpers/built-bundles'
import { benchQueries } from './query-bench'
import { seedCacheFile } from './seed-cache'

/** The main-thread section's size; QUERY_PROCESS_BENCH_EMPLOYEES lowers it for a quick try. */
const EMPLOYEES = Number(process.env['QUERY_PROCESS_BENCH_EMPLOYEES'] ?? 1_000_000)

/**
 * The main process as the app runs it since the core moved to a utility process (ARCHITECTURE.md, "Runtimes and threads"):
 * a fresh process standing for Electron's main starts the real core process through the shell's own
 * RemoteAppCore and routes the same queries to it (query-process-router.ts). Fresh, so nothing this bench did
 * before counts in either process's memory.
 */
export const queryProcessSection: BenchSection = {
  id: 'query-process',
  title: `The main process, the app core in a process of its own, at ${EMPLOYEES.toLocaleString('en-US')} employees`,
  run: async (context) => {
    const dataDir = join(context.dir, 'app')
    context.log(`query-process: storing ${EMPLOYEES.toLocaleString('en-US')} employees`)
    await seedCacheFile(join(dataDir, 'cache', CACHE_FILE_NAME), EMPLOYEES)
    // The mix is made here, so the router loads nothing of the app but what the shell does.
    const queriesFile = join(context.dir, 'query-process-mix.json')
    writeFileSync(
      queriesFile,
      JSON.stringify([{ limit: 100, facets: true }, ...benchQueries(200, EMPLOYEES)]),
    )
    context.log('query-process: building the app bundles')
    await ensureBuiltBundles()
    context.log('query-process: the mix through the core process')
    const load = loadavg()[0] ?? 0
    const output = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(__dirname, 'query-process-router.ts'),
        dataDir,
        queriesFile,
        dirname(MAIN_BUNDLE),
      ],
      { cwd: join(__dirname, '..'), encoding: 'utf8', maxBuffer: 1024 * 1024 },
    )
    const report = JSON.parse(output.trim().split('\n').pop() ?? '{}') as QueryProcessReport
    const first = percentiles(report.firstUse)
    const warm = percentiles(report.warm)
    const mb = (value: number) => `${value.toFixed(0)} MB`
    const mainRssMb = Math.max(report.routerRssMb, report.routerRestingRssMb)
    return [
      `In the app, Electron's main process keeps the windows, dialogs and secrets and routes each request to the ` +
        `core process (a \`utilityProcess\` running out/main/core-process.js), which holds the cache, the index, ` +
        `the first-use builds and the core worker. Here a fresh process stands for main: it starts the same built core ` +
        `process bundle, under plain Node, through the shell's own \`RemoteAppCore\` (forked by Node, with structured-clone messages as ` +
        `a utilityProcess's are), and sends the first query, then the 200-query mix first use and warm, one ` +
        `\`employees:query\` request after the other. Times are round trips as main sees them; the hop to the ` +
        `renderer is left out. The stand-in for main runs through tsx (about 20 MB of it; the packaged app loads none). ` +
        `Load average at the start: ${load.toFixed(2)}.`,
      '',
      table(
        ['Pass', 'p50', 'p95', 'max', 'Longest task on the main process'],
        [
          ['first use', ms(first.median), ms(first.p95), ms(first.max), ms(report.firstUseLongestMs)],
          ['warm', ms(warm.median), ms(warm.p95), ms(warm.max), ms(report.warmLongestMs)],
        ],
      ),
      '',
      `- Main-process memory after the mix: ${mb(report.routerRssMb)} RSS after a second of quiet, ` +
        `${mb(report.routerRestingRssMb)} ${CORE_WORKER_IDLE_STOP_MS / 1000} s later (target ≤ 300 MB: ` +
        `${verdict(mainRssMb <= 300)}). The core process held ${mb(report.engineRssMb)} (its core worker still ` +
        `alive) and ${mb(report.engineRestingRssMb)} once the worker had ended for lack of work: that is where the ` +
        `index's memory is (the main-thread section above measures it step by step).`,
      `- From starting the core process to the first rows: ${ms(report.firstRowsMs)} (the process's start and ` +
        `its modules' loading, the demo sandbox's start, the core's open and the first query; target ≤ 1 s: ` +
        `${verdict(report.firstRowsMs <= 1000)}). In the app the core process starts while the window opens.`,
      `- Query p95 through main: first use ${ms(first.p95)} (≤ 50 ms: ${verdict(first.p95 <= 50)}), warm ` +
        `${ms(warm.p95)} (≤ 10 ms: ${verdict(warm.p95 <= 10)}).`,
    ].join('\n')
  },
}
