import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPORT_USAGE, runExportCommand } from '../../../../src/main/cli/export-command'
import { SEARCH_USAGE, runSearchCommand } from '../../../../src/main/cli/search-command'
import { openCacheDatabase } from '../../../../src/main/core/cache/cache-database'
import { CACHE_FILE_NAME, profileCacheDir } from '../../../../src/main/core/settings/profile-store'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../src/main/core/settings/settings-store'
import type { SandboxHandle } from '../../../../src/main/sandbox/index'
import type { QueryResult } from '../../../../src/shared/domain/query'
import type { ViewState } from '../../../../src/shared/view-schema'
import { runCommand } from '../../../helpers/run-cli'
import { startTestSandbox } from '../../../helpers/sandbox'
import { syncFromSandbox } from '../../../helpers/sync-from-sandbox'
import { aboutCells, readCsv, readXlsx, sheetNamed } from '../../../helpers/xlsx-reader'
import { TEST_CACHE_KEY } from '../../../helpers/test-cache-key'

/** A view saved in the app: leavers and people on leave, by hire date, newest first, four columns. */
const LEAVERS: ViewState = {
  text: '',
  statuses: ['Terminated', 'On leave'],
  payCycleIds: [],
  sort: { column: 'hireDate', order: 'desc' },
  columns: { keys: ['lastName', 'firstName', 'employeeStatus', 'hireDate'], widths: { lastName: 200 } },
}
/** A search saved with its "Search in" column. */
const FINANCE: ViewState = {
  text: 'finance',
  searchColumn: 'department',
  statuses: [],
  payCycleIds: ['PC-MONTHLY'],
  columns: { keys: ['lastName', 'department', 'payCycleId', 'notAColumnAnyMore'], widths: {} },
}

let sandbox: SandboxHandle
let dataDir: string

beforeAll(async () => {
  sandbox = await startTestSandbox({ size: 300, seed: 11 })
  dataDir = mkdtempSync(join(tmpdir(), 'rosterdesk-cli-views-'))
  // The app's settings file as the app writes it: two profiles, views saved in the first ("Demo").
  const backend = new MemoryKeyValueBackend()
  const settings = new SettingsStore(backend)
  settings.profiles.create('Acme Ltd')
  const savedAt = new Date('2026-11-25T09:00:00Z')
  settings.profiles.views.save('p1', { name: 'Leavers', state: LEAVERS, replace: false, savedAt })
  settings.profiles.views.save('p1', { name: 'Finance monthly', state: FINANCE, replace: false, savedAt })
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(Object.fromEntries(backend.values)))
  // The cache the app fills for that profile.
  const cacheDir = profileCacheDir(dataDir, 'p1')
  mkdirSync(cacheDir, { recursive: true })
  const cache = openCacheDatabase(join(cacheDir, CACHE_FILE_NAME), { key: TEST_CACHE_KEY })
  try {
    await syncFromSandbox(cache, sandbox)
  } finally {
    cache.close()
  }
}, 60_000)

afterAll(async () => {
  await sandbox?.close()
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
})

async function search(...args: string[]): Promise<QueryResult> {
  const result = await runCommand(runSearchCommand, [
    '--profile',
    'demo',
    '--data-dir',
    dataDir,
    '--json',
    '--limit',
    '1000',
    ...args,
  ])
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as QueryResult
}

const uuids = (result: QueryResult): unknown[] => result.rows.map((row) => row.UUID)

describe('search --view NAME', () => {
  it('runs the saved view’s search, filters and sort, as the same flags would', async () => {
    const viewed = await search('--view', 'leavers')
    const flagged = await search(
      '--status',
      'Terminated',
      '--status',
      'On leave',
      '--sort',
      'hireDate',
      '--order',
      'desc',
    )
    expect(viewed.total).toBeGreaterThan(10)
    expect(uuids(viewed)).toEqual(uuids(flagged))
    expect(new Set(viewed.rows.map((row) => row.employeeStatus))).toEqual(new Set(['Terminated', 'On leave']))
    const dates = viewed.rows.map((row) => String(row.hireDate))
    expect(dates).toEqual([...dates].sort().reverse())

    // A saved "Search in" column goes with its text.
    const finance = await search('--view', 'Finance   Monthly')
    expect(uuids(finance)).toEqual(
      uuids(await search('--q', 'finance', '--col', 'department', '--pay-cycle', 'PC-MONTHLY')),
    )
    expect(finance.rows.every((row) => row.department === 'Finance' && row.payCycleId === 'PC-MONTHLY')).toBe(
      true,
    )
  })

  it('lets each flag given as well win over that part of the view', async () => {
    const active = await search('--view', 'Leavers', '--status', 'Active')
    expect(uuids(active)).toEqual(
      uuids(await search('--status', 'Active', '--sort', 'hireDate', '--order', 'desc')),
    )
    const byName = await search('--view', 'Leavers', '--sort', 'lastName')
    expect(uuids(byName)).toEqual(
      uuids(await search('--status', 'Terminated', '--status', 'On leave', '--sort', 'lastName')),
    )
    // --q replaces the saved search whole, its "Search in" column too.
    const named = await search('--view', 'Finance monthly', '--q', 'a')
    expect(uuids(named)).toEqual(uuids(await search('--q', 'a', '--pay-cycle', 'PC-MONTHLY')))
  })

  it('names the profile’s views when the name is unknown, and needs --profile', async () => {
    const unknown = await runCommand(runSearchCommand, [
      '--profile',
      'Demo',
      '--data-dir',
      dataDir,
      '--view',
      'Joiners',
    ])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain(
      '--view: no view named "Joiners" in profile "Demo". Saved views: Finance monthly, Leavers.',
    )
    const none = await runCommand(runSearchCommand, [
      '--profile',
      'Acme Ltd',
      '--data-dir',
      dataDir,
      '--view',
      'Leavers',
    ])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('--view: profile "Acme Ltd" has no saved views')
    const noProfile = await runCommand(runSearchCommand, [
      '--db',
      join(profileCacheDir(dataDir, 'p1'), CACHE_FILE_NAME),
      '--view',
      'Leavers',
    ])
    expect(noProfile.code).toBe(2)
    expect(noProfile.stderr).toContain('--view needs --profile NAME')
  })

  it('says in its usage that explicit flags win', () => {
    for (const usage of [SEARCH_USAGE, EXPORT_USAGE]) {
      expect(usage).toContain('[--view NAME]')
      expect(usage).toContain('given as well win over those parts')
    }
    expect(EXPORT_USAGE).toContain('sort and columns')
  })
})

describe('export --view NAME', () => {
  it('writes the view’s rows in its order with its columns, read back by openpyxl', async () => {
    const out = join(dataDir, 'leavers.xlsx')
    const result = await runCommand(runExportCommand, [
      '--profile',
      'Demo',
      '--data-dir',
      dataDir,
      '--view',
      'Leavers',
      '--out',
      out,
    ])
    expect(result.code, result.stderr).toBe(0)
    const expected = await search('--view', 'Leavers')
    expect(JSON.parse(result.stdout)).toEqual({ rows: expected.total, file: out })

    const workbook = await readXlsx(out)
    const sheet = sheetNamed(workbook, 'Employees')
    expect(sheet.rows[0]?.map((cell) => cell?.v)).toEqual(['Last name', 'First name', 'Status', 'Hire date'])
    expect(sheet.rows.slice(1).map((row) => row[0]?.v)).toEqual(expected.rows.map((row) => row.lastName))
    const about = aboutCells(workbook)
    expect(about.get('Statuses')?.v).toContain('Terminated')
    expect(about.get('Sorted by')?.v).toBe('Hire date, descending')
  })

  it('takes --columns over the view’s, and names a saved column the data lost rather than drop it', async () => {
    const out = join(dataDir, 'leavers-narrow.csv')
    const narrowed = await runCommand(runExportCommand, [
      '--profile',
      'Demo',
      '--data-dir',
      dataDir,
      '--view',
      'Leavers',
      '--columns',
      'employeeNumber,lastName',
      '--out',
      out,
    ])
    expect(narrowed.code, narrowed.stderr).toBe(0)
    const csv = await readCsv(out)
    expect(csv.records[0]).toEqual(['Employee number', 'Last name'])
    expect(csv.records.slice(1).map((record) => record[1])).toEqual(
      (await search('--view', 'Leavers')).rows.map((row) => row.lastName),
    )

    // A view naming a column the data lost is refused with the column's name, never silently narrowed.
    const stale = await runCommand(runExportCommand, [
      '--profile',
      'Demo',
      '--data-dir',
      dataDir,
      '--view',
      'Finance monthly',
      '--out',
      join(dataDir, 'finance.xlsx'),
    ])
    expect(stale.code).toBe(1)
    expect(stale.stderr).toContain('The column "notAColumnAnyMore" is not in the employee data any more.')
  })
})
