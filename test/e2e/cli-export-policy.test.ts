import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import { CSV_NOT_ALLOWED_MESSAGE } from '../../src/shared/policy-view'
import { openCacheDatabase } from '../../src/main/core/cache/cache-database'
import { startCliProcess } from '../helpers/cli-process'
import { makeTempDir } from '../helpers/cache-test-helpers'
import { employee, seedSnapshot } from '../helpers/seed-snapshot'
import { readCsv, readXlsx } from '../helpers/xlsx-reader'
import { TEST_CACHE_KEY, writeTestKeyFile } from '../helpers/test-cache-key'

/** Twelve employees: eight in pay cycle PC-A, four in PC-B. */
const STAFF: EmployeeRow[] = Array.from({ length: 12 }, (_, index) =>
  employee(`u-${index + 1}`, `First${index + 1}`, `Last${index + 1}`, 'Active', {
    payCycleId: index < 8 ? 'PC-A' : 'PC-B',
  }),
)

/**
 * The machine policy's export rules on the command line, each command a process of its own as a scheduled job
 * runs it, with the policy named by ROSTERDESK_POLICY_FILE (decision 043): Excel only, five employees at most,
 * every file labelled "Confidential – HR" for Microsoft 365 (issue 34, point 4).
 */
const LABEL = {
  id: '9203368F-916C-4D59-8292-9F1C6A1E8F39',
  name: 'Confidential – HR',
  siteId: '6c15903a-880e-4e17-818a-6cb4f7935615',
}
describe('CLI: exports under the machine policy', () => {
  let dir: string
  let cleanup: () => void
  let db: string
  let out: string
  let env: Record<string, string>

  beforeAll(async () => {
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-cli-export-policy-'))
    db = join(dir, 'cache.db')
    const cache = openCacheDatabase(db, { key: TEST_CACHE_KEY })
    try {
      await seedSnapshot(cache, STAFF)
    } finally {
      cache.close()
    }
    out = join(dir, 'out')
    mkdirSync(out)
    const policyFile = join(dir, 'policy.json')
    writeFileSync(
      policyFile,
      JSON.stringify({ exports: { csvAllowed: false, maxRows: 5, sensitivityLabel: LABEL } }),
    )
    env = { ROSTERDESK_POLICY_FILE: policyFile, ROSTERDESK_USER_DATA_DIR: join(dir, 'data') }
    // The CLI's key file in its data folder holds the key the cache was seeded with.
    writeTestKeyFile(join(dir, 'data'))
  })
  afterAll(() => cleanup())

  const run = (args: readonly string[]) => startCliProcess(args, env).done

  it('refuses a .csv (exit 2) and an export over five employees (exit 1), writing nothing', async () => {
    const csv = await run(['export', '--db', db, '--out', join(out, 'all.csv')])
    expect(csv.code).toBe(2)
    expect(csv.stderr).toContain(CSV_NOT_ALLOWED_MESSAGE)
    const all = await run(['export', '--db', db, '--out', join(out, 'all.xlsx')])
    expect(all.code).toBe(1)
    expect(all.stderr).toContain(
      'Export failed: This export holds 12 employees; your organisation allows at most 5 in one export.',
    )
    const changes = await run(['changes', '--db', db, '--out', join(out, 'changes.xlsx')])
    expect(changes.code).toBe(1)
    expect(changes.stderr).toContain('holds 12 employees; your organisation allows at most 5')
    expect(readdirSync(out)).toEqual([])
  })

  it('writes the PC-B roster, four employees, to Excel', async () => {
    const roster = await run(['export', '--db', db, '--pay-cycle', 'PC-B', '--out', join(out, 'pc-b.xlsx')])
    expect(roster.code, roster.stderr).toBe(0)
    expect(JSON.parse(roster.stdout)).toMatchObject({ rows: 4 })
    expect(readdirSync(out)).toEqual(['pc-b.xlsx'])
  })

  it('labels the file as Office does: the MSIP_Label properties in docProps/custom.xml, read by another reader', async () => {
    const file = join(out, 'pc-b.xlsx')
    // openpyxl opens it; zipfile and ElementTree follow the package's relationship to the part and its type.
    const workbook = await readXlsx(file)
    expect(workbook.sheetNames).toEqual(['Roster PC-B', 'About this export'])
    const custom = workbook.customProperties
    expect(custom).toMatchObject({
      part: '/docProps/custom.xml',
      contentType: 'application/vnd.openxmlformats-officedocument.custom-properties+xml',
      relationships: 1,
    })
    const prefix = `MSIP_Label_${LABEL.id.toLowerCase()}_`
    const properties = new Map(custom!.properties.map((property) => [property.name, property.value]))
    expect([...properties.keys()]).toEqual(
      ['Enabled', 'SetDate', 'Method', 'Name', 'SiteId', 'ActionId', 'ContentBits'].map(
        (key) => prefix + key,
      ),
    )
    expect(properties.get(`${prefix}Enabled`)).toBe('true')
    expect(properties.get(`${prefix}Method`)).toBe('Privileged')
    expect(properties.get(`${prefix}Name`)).toBe('Confidential – HR')
    expect(properties.get(`${prefix}SiteId`)).toBe(LABEL.siteId)
    expect(properties.get(`${prefix}ActionId`)).toMatch(/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/)
    const setDate = properties.get(`${prefix}SetDate`)!
    expect(setDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(Math.abs(Date.parse(setDate) - Date.now())).toBeLessThan(10 * 60_000)
    for (const property of custom!.properties) {
      expect(property.fmtid).toBe('{D5CDD505-2E9C-101B-9397-08002B2CF9AE}')
    }
    expect(new Set(custom!.properties.map((property) => property.pid)).size).toBe(custom!.properties.length)

    // LibreOffice opens it without complaint and reads the same four employees.
    const converted = join(dir, 'converted')
    await promisify(execFile)(
      '/usr/bin/soffice',
      [
        `-env:UserInstallation=file://${join(dir, 'lo-profile')}`,
        '--headless',
        '--convert-to',
        'csv',
        '--outdir',
        converted,
        file,
      ],
      { timeout: 170_000 },
    )
    const csv = readFileSync(join(converted, 'pc-b.csv'), 'utf8').trim().split(/\r?\n/)
    expect(csv).toHaveLength(5)
    expect(csv.slice(1).every((line) => line.includes('PC-B'))).toBe(true)
  })

  it('notes the written roster in the export record, and only it: `audit --json` lists it, `audit` says it', async () => {
    const audit = await run(['audit', '--json'])
    expect(audit.code, audit.stderr).toBe(0)
    const listed = JSON.parse(audit.stdout) as { record: string; entries: unknown[]; skippedLines: number }
    expect(listed.record).toBe(join(dir, 'data', 'export-record.jsonl'))
    // The refused exports wrote nothing and are not on record.
    expect(listed.entries).toEqual([
      expect.objectContaining({
        runtime: 'cli',
        what: 'roster',
        payCycleId: 'PC-B',
        format: 'xlsx',
        rows: 4,
        sensitiveColumns: false,
        fileName: 'pc-b.xlsx',
        folder: out,
      }),
    ])
    expect(listed.skippedLines).toBe(0)
    const text = await run(['audit'])
    expect(text.stdout).toMatch(
      / UTC · command line · roster PC-B \(xlsx\) · 4 rows, \d+ columns · no sensitive columns · pc-b\.xlsx in /,
    )
    const nobody = await run(['audit', '--profile', 'Nobody'])
    expect(nobody.stdout.trim()).toBe(`Nothing has been exported from profile "Nobody" (${listed.record}).`)
    expect((await run(['audit', '--since', 'yesterday'])).code).toBe(2)
  })
})

/** Six employees with their pay and bank details: an annual salary and an IBAN, as a service adds one. */
const PAID: EmployeeRow[] = Array.from({ length: 6 }, (_, index) =>
  employee(`p-${index + 1}`, `Paid${index + 1}`, `Person${index + 1}`, 'Active', {
    annualSalary: 50_000 + index * 1_111.11,
    iban: `DE8937040044053201300${index}`,
    payCycleId: 'PC-A',
  }),
)

describe('CLI: exports.sensitiveColumns: "exclude" (issue 34, point 2)', () => {
  let dir: string
  let cleanup: () => void
  let db: string
  let env: Record<string, string>

  beforeAll(async () => {
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-cli-sensitive-'))
    db = join(dir, 'cache.db')
    const cache = openCacheDatabase(db, { key: TEST_CACHE_KEY })
    try {
      await seedSnapshot(cache, PAID)
    } finally {
      cache.close()
    }
    const policyFile = join(dir, 'policy.json')
    writeFileSync(policyFile, JSON.stringify({ exports: { sensitiveColumns: 'exclude' } }))
    env = { ROSTERDESK_POLICY_FILE: policyFile, ROSTERDESK_USER_DATA_DIR: join(dir, 'data') }
    writeTestKeyFile(join(dir, 'data'))
  })
  afterAll(() => cleanup())

  const run = (args: readonly string[]) => startCliProcess(args, env).done

  it('writes no salary or IBAN to the XLSX or the CSV, even when asked to include them', async () => {
    const columns = [
      '--columns',
      'lastName,firstName,annualSalary,iban,payCycleId',
      '--sensitive-columns',
      'include',
    ]
    const xlsx = await run(['export', '--db', db, '--out', join(dir, 'paid.xlsx'), ...columns])
    expect(xlsx.code, xlsx.stderr).toBe(0)
    const csv = await run(['export', '--db', db, '--out', join(dir, 'paid.csv')])
    expect(csv.code, csv.stderr).toBe(0)

    const book = await readXlsx(join(dir, 'paid.xlsx'))
    const rows = book.sheets[0]!.rows
    expect(rows[0]!.map((cell) => cell?.v)).toEqual(['Last name', 'First name', 'Pay cycle'])
    expect(rows).toHaveLength(7)
    const records = (await readCsv(join(dir, 'paid.csv'))).records
    expect(records[0]).not.toContain('Annual salary')
    expect(records[0]).not.toContain('IBAN')
    expect(records[0]).toEqual(expect.arrayContaining(['Last name', 'First name', 'UUID']))
    const values = [
      ...book.sheets.flatMap((sheet) => sheet.rows.flat().map((cell) => String(cell?.v))),
      ...records.flat(),
    ]
    for (const person of PAID) {
      expect(values).not.toContain(String(person['iban']))
      expect(values).not.toContain(String(person['annualSalary']))
    }

    const audit = await run(['audit', '--json'])
    const listed = JSON.parse(audit.stdout) as {
      entries: Array<{ columns: string[]; sensitiveColumns: boolean }>
    }
    // Newest first: the CSV (every column the cache knows, less the sensitive), then the XLSX.
    expect(listed.entries).toMatchObject([
      { sensitiveColumns: false },
      { columns: ['lastName', 'firstName', 'payCycleId'], sensitiveColumns: false },
    ])
    expect(listed.entries[0]!.columns).not.toContain('iban')
    expect(listed.entries[0]!.columns).not.toContain('annualSalary')
  })
})
