import { execFileSync } from 'node:child_process'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { CACHE_FILE_NAME } from '../src/main/core/settings/profile-store'
import type { BenchSection } from './bench-kit'
import { ms, percentiles, table, verdict } from './bench-kit'
import type { QueryProcessReport } from './query-process-router'
import { seedCacheFile } from './seed-cache'

/** The main-thread section's size; QUERY_PROCESS_BENCH_EMPLOYEES lowers it for a quick try. */
const EMPLOYEES = Number(process.env['QUERY_PROCESS_BENCH_EMPLOYEES'] ?? 1_000_000)

/**
 * Evidence for the design the main-process memory target needs (ARCHITECTURE.md, "Memory"): the app core, and
 * with it the index and the core worker, in a process of its own, and the process standing for Electron's main
 * only routing queries to it. Both run fresh (query-process-router.ts forks query-process-engine.ts), so nothing
 * this bench did before counts in either's memory.
 */
export const queryProcessSection: BenchSection = {
  id: 'query-process',
  title: `Queries across a process boundary, at ${EMPLOYEES.toLocaleString('en-US')} employees (a design not built yet)`,
  run: async (context) => {
    const dataDir = join(context.dir, 'app')
    context.log(`query-process: storing ${EMPLOYEES.toLocaleString('en-US')} employees`)
    await seedCacheFile(join(dataDir, 'cache', CACHE_FILE_NAME), EMPLOYEES)
    context.log('query-process: the mix through a router process')
    const load = loadavg()[0] ?? 0
    const output = execFileSync(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'query-process-router.ts'), dataDir, String(EMPLOYEES)],
      { cwd: join(__dirname, '..'), encoding: 'utf8', maxBuffer: 1024 * 1024 },
    )
    const report = JSON.parse(output.trim().split('\n').pop() ?? '{}') as QueryProcessReport
    const first = percentiles(report.firstUse)
    const warm = percentiles(report.warm)
    const mb = (value: number) => `${value.toFixed(0)} MB`
    return [
      `The app as it is answers queries on the thread that also holds the index (the main-thread section above). ` +
        `Here the app core (the index, the first-use builds, the core worker) runs in a process of its own, as a ` +
        `\`utilityProcess\` would, and a fresh process standing for Electron's main routes the same queries to it ` +
        `(Node's IPC with structured-clone serialisation, as a utilityProcess's messages are): the first rows, then ` +
        `the 200-query mix first use and warm, one query after the other. Times are round trips as the router sees ` +
        `them; the hop to the renderer is the same in both designs and is left out of both. The router imports ` +
        `nothing of the app but the stall probe; it runs through tsx, as the bench does. Load average at the ` +
        `start: ${load.toFixed(2)}.`,
      '',
      table(
        ['Pass', 'p50', 'p95', 'max', 'Longest task on the routing thread'],
        [
          ['first use', ms(first.median), ms(first.p95), ms(first.max), ms(report.firstUseLongestMs)],
          ['warm', ms(warm.median), ms(warm.p95), ms(warm.max), ms(report.warmLongestMs)],
        ],
      ),
      '',
      `- Opening the core to the first rows, as the main-thread section measures it (the engine's core open and ` +
        `the first query, through the router): ${ms(report.openToFirstRowsMs)} (target ≤ 1 s: ` +
        `${verdict(report.openToFirstRowsMs <= 1000)}); ${ms(report.firstRowsMs)} from forking the engine, whose ` +
        `start here includes Node's and tsx's (in the app it would start beside the window).`,
      `- Query p95 through the router: first use ${ms(first.p95)} (≤ 50 ms: ${verdict(first.p95 <= 50)}), warm ` +
        `${ms(warm.p95)} (≤ 10 ms: ${verdict(warm.p95 <= 10)}).`,
      `- The routing process after the mix: ${mb(report.routerRssMb)} RSS (≤ 300 MB: ` +
        `${verdict(report.routerRssMb <= 300)}); the engine process ${mb(report.engineRssMb)} (its core worker ` +
        `still alive), which is where the index's memory goes.`,
    ].join('\n')
  },
}
