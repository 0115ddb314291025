import { join } from 'node:path'
import Database from 'better-sqlite3-multiple-ciphers'
import type { EmployeeRow } from '../src/shared/domain/rows'
import { SNAPSHOT_TABLES } from '../src/main/core/snapshot/snapshot-schema'
import { SnapshotWriter } from '../src/main/core/snapshot/snapshot-writer'
import { SnapshotBuilder } from '../src/main/core/sync/snapshot-builder'
import { EmployeeGenerator } from '../src/main/sandbox/data'
import type { BenchContext, BenchSection } from './bench-kit'
import { ms, rate, table, verdict } from './bench-kit'
import { BENCH_CACHE_KEY } from './bench-cache-key'

const ROWS = 100_000
const PAGE_SIZE = 500
const RUNS = 3

/**
 * Raw better-sqlite3: the same parsed rows, serialised, through one prepared INSERT into a table with the same
 * columns as the cache's employees table and no indexes, in one transaction, with better-sqlite3's defaults.
 */
function rawInsert(path: string, rows: readonly EmployeeRow[]): number {
  const db = new Database(path)
  try {
    db.exec(SNAPSHOT_TABLES)
    const insert = db.prepare(
      `INSERT INTO employees (id, uuid, uuid_key, first_name, last_name, employee_status, pay_cycle_id, row_json,
         row_hash, change, changed_fields) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    const start = performance.now()
    db.transaction(() => {
      rows.forEach((row, i) => {
        const uuid = String(row['UUID'])
        insert.run(
          i + 1,
          uuid,
          uuid.toLowerCase(),
          row['firstName'],
          row['lastName'],
          row['employeeStatus'],
          row['payCycleId'],
          JSON.stringify(row),
          0,
          'added',
          null,
        )
      })
    })()
    return performance.now() - start
  } finally {
    db.close()
  }
}

/** The cache's path: the sync's builder page by page (hash, change tracking, columns), then seal and fsync. */
async function cacheWrite(path: string, rows: readonly EmployeeRow[]): Promise<number> {
  const start = performance.now()
  const writer = SnapshotWriter.create(path, BENCH_CACHE_KEY)
  const builder = new SnapshotBuilder(writer, null)
  for (let offset = 0; offset < rows.length; offset += PAGE_SIZE) {
    builder.addPage({
      pass: 1,
      page: offset / PAGE_SIZE + 1,
      position: offset,
      rows: rows.slice(offset, offset + PAGE_SIZE),
    })
  }
  const built = builder.finish({
    pass: 1,
    totalCount: rows.length,
    limit: PAGE_SIZE,
    pages: Math.ceil(rows.length / PAGE_SIZE),
    uuids: new Set(rows.map((row) => String(row['UUID']))),
  })
  await writer.seal({
    columns: built.columns,
    removed: built.removed,
    info: {},
    searchIndex: builder.searchIndex().serialize(),
  })
  writer.close()
  return performance.now() - start
}

export const writeSection: BenchSection = {
  id: 'write',
  title: `Cache write rate (${ROWS.toLocaleString('en-US')} rows)`,
  run: async (context: BenchContext) => {
    const generator = new EmployeeGenerator(3, ROWS)
    // Parsed objects, as a sync holds them after JSON.parse of each page.
    const rows = Array.from(
      { length: ROWS },
      (_, i) => JSON.parse(JSON.stringify(generator.row(i))) as EmployeeRow,
    )
    const raw: number[] = []
    const cache: number[] = []
    for (let i = 0; i < RUNS; i++) {
      raw.push(rawInsert(join(context.dir, `raw-${i}.db`), rows))
      cache.push(await cacheWrite(join(context.dir, `cache-${i}.sqlite`), rows))
      context.log(`write: run ${i + 1}: raw ${ms(raw[i] ?? 0)}, cache ${ms(cache[i] ?? 0)}`)
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
    const rawMs = median(raw)
    const cacheMs = median(cache)
    const share = rawMs / cacheMs
    return [
      'Raw: one prepared INSERT of the same parsed rows (serialised with JSON.stringify) into a table with the ' +
        'same columns and no indexes, one transaction, better-sqlite3 defaults. Cache: the sync’s own path — ' +
        `\`SnapshotBuilder.addPage\` per ${PAGE_SIZE}-row page (serialise, fingerprint, change tracking, column ` +
        'discovery, search-index encoding, one transaction per page), then `finish`, the search index (built ' +
        'and stored for the query engine) and `seal` (UUID index, fsync). ' +
        `Median of ${RUNS} runs.`,
      '',
      table(
        ['Writer', 'Time', 'Rate'],
        [
          ['raw better-sqlite3', ms(rawMs), rate(ROWS, rawMs)],
          ['RosterDesk cache', ms(cacheMs), rate(ROWS, cacheMs)],
        ],
      ),
      '',
      `- Cache rate = ${(share * 100).toFixed(0)}% of raw; target ≥ 50%: ${verdict(share >= 0.5)}`,
    ].join('\n')
  },
}
