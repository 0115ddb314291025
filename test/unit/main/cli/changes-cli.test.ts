import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../../../src/shared/domain/rows'
import { openCacheDatabase } from '../../../../src/main/core/cache/cache-database'
import { aboutCells, readCsv, readXlsx, sheetNamed } from '../../../helpers/xlsx-reader'
import { employee, seedSnapshot } from '../../../helpers/seed-snapshot'
import { tempFolder } from '../../../helpers/export-fixtures'
import { runCliProcess } from '../../../helpers/run-cli'
import type { CliProcessRun } from '../../../helpers/run-cli'
import { TEST_CACHE_KEY } from '../../../helpers/test-cache-key'

/** Runs `npm run --silent cli -- changes ...`. */
const changes = (args: string[]): Promise<CliProcessRun> => runCliProcess(['changes', ...args])

function onlyJson(run: CliProcessRun): Record<string, unknown> {
  const lines = run.stdout.split('\n').filter((line) => line !== '')
  expect(lines, `stdout: ${run.stdout} stderr: ${run.stderr}`).toHaveLength(1)
  return JSON.parse(lines[0]!) as Record<string, unknown>
}

const STAFF: EmployeeRow[] = ['Lee', 'Ng', 'Orr', 'Park'].map((last, index) =>
  employee(`u-${index + 1}`, `First${index + 1}`, last, 'Active', {
    employeeNumber: `000000${index + 1}`,
    payCycleId: 'PC-A',
  }),
)

describe('cli changes', () => {
  let folder: ReturnType<typeof tempFolder>
  let db: string
  /** The sync that removed Ng and moved Orr to PC-B; the latest sync after it added Quinn. */
  let middle: number
  let latest: number

  beforeAll(async () => {
    folder = tempFolder()
    db = join(folder.path, 'cache.db')
    const cache = openCacheDatabase(db, { key: TEST_CACHE_KEY })
    try {
      await seedSnapshot(cache, STAFF)
      const moved = [STAFF[0]!, { ...STAFF[2]!, payCycleId: 'PC-B' }, STAFF[3]!]
      middle = (await seedSnapshot(cache, moved)).id
      const quinn = employee('u-5', 'First5', 'Quinn', 'Pending', {
        employeeNumber: '0000005',
        payCycleId: 'PC-B',
      })
      latest = (await seedSnapshot(cache, [...moved, quinn])).id
    } finally {
      cache.close()
    }
  })
  afterAll(() => folder?.remove())

  it('writes an earlier sync’s changes chosen with --run to .xlsx, and prints rows, file and run', async () => {
    const out = join(folder.path, 'middle.xlsx')
    const run = await changes(['--db', db, '--out', out, '--run', String(middle)])
    expect(run.code, run.stderr).toBe(0)
    expect(onlyJson(run)).toEqual({ rows: 2, file: out, runId: middle })
    const book = await readXlsx(out)
    expect(book.sheetNames).toEqual(['Added', 'Removed', 'Changed', 'About this export'])
    expect(sheetNamed(book, 'Added').rows).toHaveLength(1)
    expect(sheetNamed(book, 'Removed').rows.map((row) => row.map((cell) => cell?.v))).toEqual([
      ['Employee number', 'UUID', 'Name', 'Status', 'Pay cycle'],
      ['0000002', 'u-2', 'First2 Ng', 'Active', 'PC-A'],
    ])
    expect(sheetNamed(book, 'Changed').rows[1]!.map((cell) => cell?.v)).toEqual([
      '0000003',
      'u-3',
      'First3 Orr',
      'Active',
      'PC-B',
      'Pay cycle',
      'PC-A',
      'PC-B',
    ])
    const about = aboutCells(book)
    expect(about.get('Removed')?.v).toBe(1)
    expect(about.get('Changed')?.v).toBe(1)
    // Seeded without a service address, and no --environment: the sheet says so rather than guessing.
    expect(about.get('Environment')?.v).toBe('not recorded')
  })

  it('writes the latest sync to .csv by default, with a Change column', async () => {
    const out = join(folder.path, 'latest.csv')
    const run = await changes(['--db', db, '--out', out, '--environment', 'Payroll EU'])
    expect(onlyJson(run)).toEqual({ rows: 1, file: out, runId: latest })
    expect((await readCsv(out)).records).toEqual([
      ['Change', 'Employee number', 'UUID', 'Name', 'Status', 'Pay cycle', 'Field', 'Before', 'After'],
      ['Added', '0000005', 'u-5', 'First5 Quinn', 'Pending', 'PC-B', '', '', ''],
    ])
  })

  it('keeps --kind and its JSON, extended with the run and each entry’s facts', async () => {
    const run = onlyJson(await changes(['--db', db, '--kind', 'changed', '--run', String(middle), '--json']))
    expect(run).toEqual({
      kind: 'changed',
      runId: middle,
      total: 1,
      items: [
        {
          UUID: 'u-3',
          name: 'First3 Orr',
          firstName: 'First3',
          lastName: 'Orr',
          employeeNumber: '0000003',
          status: 'Active',
          payCycleId: 'PC-B',
          fields: ['payCycleId'],
          changes: [{ field: 'payCycleId', before: 'PC-A', after: 'PC-B' }],
        },
      ],
    })
    const text = await changes(['--db', db, '--kind', 'changed', '--run', String(middle)])
    expect(text.stdout).toBe('1 changed\nu-3\tFirst3 Orr\tpayCycleId: PC-A → PC-B\n')
    const history = onlyJson(await changes(['--db', db, '--history', '--json']))
    expect((history['history'] as Array<{ runId: number }>).map((entry) => entry.runId)).toEqual([
      latest,
      middle,
      middle - 1,
    ])
  })

  it('refuses a file type it cannot write (2) and a sync not in the history (1), writing nothing', async () => {
    const wrongType = await changes(['--db', db, '--out', join(folder.path, 'x.txt')])
    expect(wrongType.code).toBe(2)
    expect(wrongType.stderr).toMatch(/--out must end in .xlsx or .csv/)
    const both = await changes(['--db', db, '--out', join(folder.path, 'x.xlsx'), '--kind', 'added'])
    expect(both.code).toBe(2)
    const out = join(folder.path, 'gone.xlsx')
    const gone = await changes(['--db', db, '--out', out, '--run', '999'])
    expect(gone.code).toBe(1)
    expect(gone.stderr).toMatch(/no longer in the change history/)
    expect(existsSync(out)).toBe(false)
  })
})
