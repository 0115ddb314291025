import { mkdirSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import type { EmployeeQuery, QueryResult } from '../src/shared/domain/query'
import type { AppCore } from '../src/main/core/session/create-app-core'
import { dispatchInvoke } from '../src/main/core/ipc/dispatch'
import { CACHE_FILE_NAME } from '../src/main/core/settings/profile-store'
import { EmployeeGenerator, PAY_CYCLE_IDS, STATUS_BY_CODE } from '../src/main/sandbox/data'
import { createRng } from '../src/main/sandbox/random'
import type { BenchContext, BenchSection } from './bench-kit'
import { ms, quantiles, table, verdict } from './bench-kit'
import { appCoreOver } from './query-bench'
import { seedCacheFile } from './seed-cache'

/** The sizes; FILTER_MIX_BENCH_SIZES=100000 runs one for a quick try of the section itself. */
const SIZES = (process.env['FILTER_MIX_BENCH_SIZES'] ?? '100000,1000000').split(',').map(Number)
const QUERIES = 300
const TARGET_P95_MS = 100
const TARGET_P99_MS = 200
const STATUSES = [...STATUS_BY_CODE.values()]

/** What one query of the mix is, for the table of its slowest kinds. */
interface MixQuery {
  readonly kind: string
  readonly query: EmployeeQuery
}

/**
 * The filter changes a clerk makes, seeded: one or several statuses, one or several pay cycles, both together
 * (the slow case: several statuses and a pay cycle), a name prefix of 1–4 letters alone or with them, and
 * a share of each sorted by a column other than the default. Each asks what the renderer asks on a filter change:
 * the first window of 100 rows and the facet counts (use-employee-rows.ts).
 */
export function filterMix(count: number, size: number, seed = 24): MixQuery[] {
  const random = createRng(seed)
  const generator = new EmployeeGenerator(1, size)
  const some = <T>(items: readonly T[], most: number): T[] => {
    const shuffled = [...items].sort(() => random() - 0.5)
    return shuffled.slice(0, 1 + Math.floor(random() * most))
  }
  const prefix = () => generator.lastName(Math.floor(random() * size)).slice(0, 1 + Math.floor(random() * 4))
  const mix: MixQuery[] = []
  for (let i = 0; i < count; i++) {
    const kind = Math.floor(random() * 8)
    const query: EmployeeQuery = { offset: 0, limit: 100, facets: true }
    let name: string
    if (kind === 0) {
      query.statuses = some(STATUSES, 1)
      name = 'one status'
    } else if (kind === 1) {
      query.statuses = some(STATUSES, 4)
      name = 'statuses'
    } else if (kind === 2) {
      query.payCycleIds = some(PAY_CYCLE_IDS, 3)
      name = 'pay cycles'
    } else if (kind === 3 || kind === 4) {
      query.statuses = some(STATUSES, 4)
      query.payCycleIds = some(PAY_CYCLE_IDS, 2)
      name = 'statuses + pay cycles'
    } else if (kind === 5) {
      query.text = prefix()
      name = 'search'
    } else {
      query.text = prefix()
      query.statuses = some(STATUSES, 3)
      if (kind === 7) query.payCycleIds = some(PAY_CYCLE_IDS, 2)
      name = kind === 7 ? 'search + statuses + pay cycles' : 'search + statuses'
    }
    if (random() < 0.2) {
      query.sort = {
        column: random() < 0.5 ? 'hireDate' : 'firstName',
        order: random() < 0.5 ? 'asc' : 'desc',
      }
      name += ', sorted'
    }
    mix.push({ kind: name, query })
  }
  return mix
}

/**
 * One filter change as the clerk waits for it: the `employees:query` request through the app core's own handler
 * (`dispatchInvoke`, the IPC's entry point, contract validation included), the reply structured-cloned as
 * Electron copies it; after a `setImmediate`, as each IPC request is a task of its own in the app.
 */
async function timeChange(core: AppCore, query: EmployeeQuery): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve))
  const start = performance.now()
  const result = await dispatchInvoke(core.handlers, 'employees:query', [query])
  structuredClone(result)
  const elapsed = performance.now() - start
  if (!result.ok) throw new Error(`bench: query refused: ${result.error.message}`)
  if ((result.value as QueryResult).facets === undefined) throw new Error('bench: no facet counts')
  return elapsed
}

async function runSize(context: BenchContext, size: number): Promise<{ row: string[]; slowest: string }> {
  const dataDir = join(context.dir, `app-${size}`)
  mkdirSync(join(dataDir, 'cache'), { recursive: true })
  context.log(`filter-mix: a cache of ${size.toLocaleString('en-US')} employees`)
  await seedCacheFile(join(dataDir, 'cache', CACHE_FILE_NAME), size)
  const load = loadavg()[0] ?? 0
  const core = await appCoreOver(dataDir)
  try {
    const mix = filterMix(QUERIES, size)
    context.log(`filter-mix: ${size.toLocaleString('en-US')}: first pass (opens the index, builds the sorts)`)
    const first: number[] = []
    for (const { query } of mix) first.push(await timeChange(core, query))
    context.log(`filter-mix: ${size.toLocaleString('en-US')}: measured pass`)
    const times: number[] = []
    for (const { query } of mix) times.push(await timeChange(core, query))
    const warm = quantiles(times)
    const cold = quantiles(first)
    const byKind = new Map<string, number[]>()
    mix.forEach(({ kind }, i) => byKind.set(kind, [...(byKind.get(kind) ?? []), times[i] ?? 0]))
    const slowest = [...byKind]
      .map(([kind, list]) => ({ kind, count: list.length, ...quantiles(list) }))
      .sort((a, b) => b.p95 - a.p95)
      .slice(0, 3)
      .map((entry) => `${entry.kind} (${entry.count}): p95 ${ms(entry.p95)}, max ${ms(entry.max)}`)
      .join('; ')
    // What made a first answer slow: the mix's kinds among the first-pass answers over the target.
    const slowFirst = new Map<string, number>()
    mix.forEach(({ kind }, i) => {
      if ((first[i] ?? 0) > TARGET_P95_MS) slowFirst.set(kind, (slowFirst.get(kind) ?? 0) + 1)
    })
    const firstNote =
      slowFirst.size === 0 ? 'none' : [...slowFirst].map(([kind, count]) => `${count} × ${kind}`).join(', ')
    return {
      row: [
        size.toLocaleString('en-US'),
        ms(warm.median),
        ms(warm.p95),
        ms(warm.p99),
        ms(warm.max),
        `p95 ≤ ${TARGET_P95_MS} ms: ${verdict(warm.p95 <= TARGET_P95_MS)}; p99 ≤ ${TARGET_P99_MS} ms: ${verdict(warm.p99 <= TARGET_P99_MS)}`,
        `${ms(cold.median)} / ${ms(cold.p95)} / ${ms(cold.p99)} / ${ms(cold.max)}`,
        load.toFixed(2),
      ],
      slowest:
        `- ${size.toLocaleString('en-US')}, slowest kinds (measured pass): ${slowest}. First-pass answers over ` +
        `${TARGET_P95_MS} ms: ${firstNote}.`,
    }
  } finally {
    await core.close()
  }
}

export const filterMixSection: BenchSection = {
  id: 'filter-mix',
  title: 'Filter changes with their facet counts (issue 24, point 8)',
  run: async (context) => {
    const rows: string[][] = []
    const notes: string[] = []
    for (const size of SIZES) {
      const { row, slowest } = await runSize(context, size)
      rows.push(row)
      notes.push(slowest)
    }
    return [
      `${QUERIES} filter changes, seeded (bench/filter-mix-bench.ts): one status, several statuses, one or several ` +
        "pay cycles, several statuses with one or two pay cycles (the clerk's slow case, a quarter of the mix), " +
        'a name prefix of 1–4 letters alone, with statuses, and with statuses and pay cycles; a fifth of them ' +
        'sorted by hire date or first name. Each asks what the renderer asks on a filter change, the first 100 ' +
        "rows and the facet counts, through the app core's own `employees:query` handler (`dispatchInvoke`), the " +
        'reply structured-cloned as Electron copies it. The measured pass follows a first pass over the same mix, ' +
        'which opens the index and builds the two sort orders (first use, shown apart). Load is the 1-minute load ' +
        'average when the size started.',
      '',
      table(
        ['Employees', 'p50', 'p95', 'p99', 'Max', 'Target', 'First pass p50 / p95 / p99 / max', 'Load'],
        rows,
      ),
      '',
      ...notes,
    ].join('\n')
  },
}
