import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3-multiple-ciphers'
import type { EmployeeQuery } from '../src/shared/domain/query'
import { createAppCore } from '../src/main/core/session/create-app-core'
import { coreWorkerRunners } from '../src/main/core-host/worker/worker-runners'
import { CACHE_FILE_NAME } from '../src/main/core/settings/profile-store'
import type { AppCore, AppCoreDeps } from '../src/main/core/session/create-app-core'
import { openCacheDatabase } from '../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../src/main/core/cache/cache-database'
import { dispatchInvoke } from '../src/main/core/ipc/dispatch'
import { silentLogger } from '../src/main/core/log/logger'
import { MemorySecretStore } from '../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend, SettingsStore } from '../src/main/core/settings/settings-store'
import { EmployeeGenerator } from '../src/main/sandbox/data'
import { createRng } from '../src/main/sandbox/random'
import type { BenchContext, BenchSection } from './bench-kit'
import { ms, percentiles, table, verdict } from './bench-kit'
import { seedGeneratedCache } from './seed-cache'
import { BENCH_CACHE_KEY } from './bench-cache-key'

const SIZES = [100_000, 1_000_000] as const
const TARGET_P95: Record<number, number> = { 100_000: 10, 1_000_000: 50 }
const QUERIES = 200
/** LIKE scans take around a second each at a million rows; this many text queries give a fair median/p95. */
const LIKE_QUERIES = 40

/**
 * 200 varied queries, as a clerk's session would mix them: short and long name prefixes (one letter matches
 * tens of thousands of rows), two-word searches, UUID prefixes, status and pay-cycle filters, sorts on
 * discovered columns, column-restricted searches and deep pages. Every query asks for the total and facets.
 */
export function benchQueries(count: number, size: number, seed = 7): EmployeeQuery[] {
  const random = createRng(seed)
  const generator = new EmployeeGenerator(1, size)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  const sample = () => Math.floor(random() * size)
  const prefix = (text: string, min: number, max: number) =>
    text.slice(0, min + Math.floor(random() * (max - min + 1)))
  const statuses = ['Active', 'On leave', 'Suspended', 'Terminated', 'Pending']
  const cycles = ['PC-MONTHLY', 'PC-2026-11-A', 'PC-2026-11-B', 'PC-2026-12-A']
  const sorts = ['annualSalary', 'hireDate', 'department', 'firstName', 'employeeNumber', 'lastName']
  const queries: EmployeeQuery[] = []
  for (let i = 0; i < count; i++) {
    const id = sample()
    const kind = random()
    const query: EmployeeQuery = { facets: true, limit: 100 }
    if (kind < 0.3) query.text = prefix(generator.lastName(id), 1, 3)
    else if (kind < 0.45)
      query.text = `${prefix(generator.firstName(id), 1, 3)} ${prefix(generator.lastName(id), 2, 4)}`
    else if (kind < 0.55) query.text = generator.lastName(id)
    else if (kind < 0.6) query.text = generator.uuid(id).slice(0, 6)
    else if (kind < 0.7) {
      query.statuses = [pick(statuses), pick(statuses)]
      query.payCycleIds = [pick(cycles)]
    } else if (kind < 0.8) query.sort = { column: pick(sorts), order: random() < 0.5 ? 'asc' : 'desc' }
    else if (kind < 0.9) {
      query.text = prefix(generator.firstName(id), 1, 2)
      query.statuses = ['Active']
      query.sort = { column: pick(sorts), order: 'desc' }
    } else {
      const column = pick(['department', 'jobTitle', 'email'] as const)
      query.column = column
      query.text = prefix(String(generator.value(column, id)), 2, 4)
    }
    if (random() < 0.15) query.offset = Math.floor(random() * 5000)
    queries.push(query)
  }
  return queries
}

/**
 * Each query as the renderer sends it: through the app's own `employees:query` handler via dispatchInvoke
 * (contract validation, defaults, the error wrapper), then copied the way Electron's IPC copies a reply
 * (structured clone), which the renderer pays for too.
 */
async function timeQueries(core: AppCore, queries: readonly EmployeeQuery[]): Promise<number[]> {
  const times: number[] = []
  for (const query of queries) {
    const start = performance.now()
    const result = await dispatchInvoke(core.handlers, 'employees:query', [query])
    structuredClone(result)
    times.push(performance.now() - start)
    if (!result.ok) throw new Error(`bench: query refused: ${result.error.message}`)
  }
  return times
}

/** The app core as Electron's main builds it, over an already written cache in `dataDir`. */
export function appCoreOver(dataDir: string, overrides: Partial<AppCoreDeps> = {}): Promise<AppCore> {
  const nowhere = 'http://127.0.0.1:9'
  return createAppCore({
    appInfo: { name: 'RosterDesk', version: 'bench', platform: process.platform },
    dataDir,
    cacheKey: BENCH_CACHE_KEY,
    settings: new SettingsStore(new MemoryKeyValueBackend()),
    secrets: new MemorySecretStore(),
    fetch: () => Promise.reject(new Error('the query bench makes no requests')),
    openExternal: async () => undefined,
    demo: {
      environment: {
        baseUrl: nowhere,
        clientId: 'bench',
        clientSecret: 'bench',
        redirectUri: `${nowhere}/callback`,
        tenantId: '',
      },
      close: async () => undefined,
    },
    events: { emit: () => undefined },
    logger: silentLogger,
    runners: coreWorkerRunners({ logger: silentLogger, cacheKey: BENCH_CACHE_KEY }),
    chooseExportPath: async () => undefined,
    revealFile: () => undefined,
    ...overrides,
  })
}

/** The naive alternative: a LIKE '%text%' scan over the names with a count and the sorted first page. */
function timeLikeScans(cache: CacheDatabase, queries: readonly EmployeeQuery[]): number[] {
  // The naive scan is SQL of the bench's own, on a connection of its own.
  const db = new Database(cache.currentSnapshot()!.path, { readonly: true })
  const count = db
    .prepare('SELECT count(*) FROM employees WHERE first_name LIKE @p OR last_name LIKE @p')
    .pluck()
  const page = db.prepare(
    'SELECT row_json FROM employees WHERE first_name LIKE @p OR last_name LIKE @p ORDER BY last_name, first_name LIMIT 100',
  )
  try {
    return queries.map((query) => {
      const pattern = `%${(query.text ?? '').split(/\s+/)[0] ?? ''}%`
      const start = performance.now()
      count.get({ p: pattern })
      page.all({ p: pattern }).forEach((row) => JSON.parse((row as { row_json: string }).row_json) as unknown)
      return performance.now() - start
    })
  } finally {
    db.close()
  }
}

async function runSize(context: BenchContext, size: number): Promise<string[]> {
  const dataDir = join(context.dir, `app-${size}`)
  mkdirSync(join(dataDir, 'cache'), { recursive: true })
  context.log(`query: generating and storing ${size.toLocaleString('en-US')} employees`)
  let start = performance.now()
  const cache = openCacheDatabase(join(dataDir, 'cache', CACHE_FILE_NAME), { key: BENCH_CACHE_KEY })
  await seedGeneratedCache(cache, size)
  const seedMs = performance.now() - start
  const core = await appCoreOver(dataDir)
  try {
    start = performance.now()
    core.queries.warm()
    const indexMs = performance.now() - start
    const queries = benchQueries(QUERIES, size)
    context.log(
      `query: ${size.toLocaleString('en-US')} rows: first pass (builds sort orders and column indexes)`,
    )
    const cold = percentiles(await timeQueries(core, queries))
    context.log(`query: ${size.toLocaleString('en-US')} rows: measured pass`)
    const warm = percentiles(await timeQueries(core, queries))
    const textQueries = queries
      .filter((q) => q.text !== undefined && q.column === undefined)
      .slice(0, LIKE_QUERIES)
    context.log(`query: ${size.toLocaleString('en-US')} rows: ${textQueries.length} LIKE scans`)
    const like = percentiles(timeLikeScans(cache, textQueries))
    const target = TARGET_P95[size] ?? 0
    return [
      size.toLocaleString('en-US'),
      ms(warm.median),
      ms(warm.p95),
      ms(warm.max),
      `≤ ${target} ms: ${verdict(warm.p95 <= target)}`,
      `${ms(cold.median)} / ${ms(cold.p95)} / ${ms(cold.max)}`,
      `${ms(like.median)} / ${ms(like.p95)}`,
      ms(indexMs),
      ms(seedMs),
    ]
  } finally {
    await core.close()
    cache.close()
  }
}

export const querySection: BenchSection = {
  id: 'query',
  title: 'Query engine (issue 5): 200 varied queries with total and facets',
  run: async (context) => {
    const rows: string[][] = []
    for (const size of SIZES) rows.push(await runSize(context, size))
    return [
      `Each query: text prefix search and/or status and pay-cycle filters, a sort, a window of 100 rows, the total ` +
        `and facet counts (per status, per pay cycle), sent as the renderer sends it: the app core's own ` +
        '`employees:query` handler through `dispatchInvoke` (contract validation included), and the reply ' +
        `structured-cloned as Electron copies it. The mix: ${QUERIES} queries ` +
        '(30% one-word name prefixes of 1–3 letters, 15% two-word prefixes, 10% full last names, 5% UUID prefixes, ' +
        '10% status + pay-cycle filters, 10% sorts on known or discovered columns, 10% prefix + status + sort, ' +
        '10% searches restricted to department/job title/email; 15% ask for a page up to 5,000 rows deep). ' +
        'The measured pass runs after a first pass over the same queries, which builds what a snapshot builds once ' +
        'on first use (sort orders per column, token indexes for searched columns); the first pass is shown too. ' +
        `The LIKE baseline runs \`first_name LIKE '%w%' OR last_name LIKE '%w%'\` with a count and the first ` +
        `sorted page, for the first ${LIKE_QUERIES} text queries, on the same snapshot in the same run.`,
      '',
      table(
        [
          'Employees',
          'Median',
          'p95',
          'Max',
          'Target (p95)',
          'First pass median / p95 / max',
          'LIKE scan median / p95',
          'Opening the snapshot (stored index)',
          'Cache written in',
        ],
        rows,
      ),
    ].join('\n')
  },
}
