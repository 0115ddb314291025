import { appendFileSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ChangeHistoryEntry } from '../../../../../src/shared/domain/changes'
import type { QueryResult } from '../../../../../src/shared/domain/query'
import { isSensitiveField } from '../../../../../src/shared/sensitive-fields'
import { ExportRecord, EXPORT_RECORD_FILE } from '../../../../../src/main/core/export-record/export-record'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import type { ClipboardContent } from '../../../../../src/main/core/export/copy-rows'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'
import { sandbox, startApp, syncNow, tempDir } from '../../../../helpers/app-core-under-test'

const DAY = 24 * 60 * 60 * 1000
const NOW = Date.parse('2026-12-07T10:00:00Z')

describe('the export record', () => {
  it('appends whole lines, 0600, says when sensitive columns went, and reads them back oldest first', () => {
    const dataDir = join(tempDir(), 'data')
    const clock = { now: () => NOW }
    const record = new ExportRecord({ dataDir, runtime: 'cli', clock })
    record.append({
      profile: 'Acme Ltd',
      what: 'view',
      format: 'xlsx',
      columns: ['lastName'],
      rows: 3,
      filePath: '/x/a.xlsx',
    })
    record.append({ what: 'roster', payCycleId: 'PC-1', columns: ['lastName', 'annualSalary'], rows: 9 })
    const { entries, skipped } = record.read()
    expect(skipped).toBe(0)
    expect(entries).toEqual([
      {
        at: '2026-12-07T10:00:00.000Z',
        runtime: 'cli',
        profile: 'Acme Ltd',
        what: 'view',
        format: 'xlsx',
        columns: ['lastName'],
        rows: 3,
        sensitiveColumns: false,
        fileName: 'a.xlsx',
        folder: '/x',
      },
      expect.objectContaining({ what: 'roster', payCycleId: 'PC-1', sensitiveColumns: true }),
    ])
    if (process.platform !== 'win32') expect(statSync(record.path).mode & 0o777).toBe(0o600)
  })

  it('skips a damaged line (a crash mid-write, an edit) and keeps every other', () => {
    const dataDir = tempDir()
    const record = new ExportRecord({ dataDir, runtime: 'app', clock: { now: () => NOW } })
    record.append({ what: 'view', columns: [], rows: 1 })
    appendFileSync(
      join(dataDir, EXPORT_RECORD_FILE),
      '{"at":"2026-12-07T10:00:00.000Z","runtime":"app","wh\n',
    )
    appendFileSync(join(dataDir, EXPORT_RECORD_FILE), 'not json at all\n')
    record.append({ what: 'roster', columns: [], rows: 2 })
    const { entries, skipped } = record.read()
    expect(entries.map((entry) => entry.what)).toEqual(['view', 'roster'])
    expect(skipped).toBe(2)
  })

  it('drops entries past the days kept at the first append of a process, replacing the file whole', () => {
    const dataDir = tempDir()
    const at = { now: NOW - 40 * DAY }
    const first = new ExportRecord({ dataDir, runtime: 'app', clock: { now: () => at.now }, keepDays: 30 })
    first.append({ what: 'view', columns: [], rows: 1 })
    at.now = NOW - 10 * DAY
    first.append({ what: 'view', columns: [], rows: 2 })
    at.now = NOW
    const next = new ExportRecord({ dataDir, runtime: 'app', clock: { now: () => at.now }, keepDays: 30 })
    next.append({ what: 'view', columns: [], rows: 3 })
    expect(next.read().entries.map((entry) => entry.rows)).toEqual([2, 3])
    expect(readdirSync(dataDir)).toEqual([EXPORT_RECORD_FILE])
  })

  it('knows sensitive columns by the known fields and by names a service adds', () => {
    for (const field of [
      'annualSalary',
      'iban',
      'IBAN',
      'bankAccount',
      'ssn',
      'taxId',
      'birthDate',
      'date_of_birth',
      'hourly-rate',
      'dob',
    ])
      expect(isSensitiveField(field), field).toBe(true)
    for (const field of ['lastName', 'payCycleId', 'department', 'setting', 'hireDate', 'email', 'status'])
      expect(isSensitiveField(field), field).toBe(false)
  })
})

describe('the export record through the real app core', () => {
  it('notes each export path once (view, chosen rows, roster, changes, print, copy) and holds no employee data', async () => {
    const demo = await sandbox({ size: 30, seed: 8 })
    const dataDir = tempDir()
    const out = join(dataDir, 'exports')
    mkdirSync(out)
    const printed: Array<{ html: string; title: string }> = []
    const clipboard: ClipboardContent[] = []
    const app = await startApp(demo, dataDir, new MemoryKeyValueBackend(), new MemorySecretStore(), {
      printed,
      clipboard,
    })
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 30 })
    const all = (await app.invoke('employees:query', { limit: 30 })) as QueryResult
    const someone = all.rows[0]!
    const lastName = String(someone['lastName'])

    app.savePath.next = join(out, 'searched.xlsx')
    const view = {
      kind: 'view',
      query: { text: lastName, statuses: ['Active'] },
      columns: ['lastName', 'firstName', 'annualSalary'],
      format: 'xlsx',
    }
    expect(await app.invoke('export:start', view)).toMatchObject({ status: 'written' })
    app.savePath.next = join(out, 'chosen.csv')
    const chosen = all.rows.slice(0, 4).map((row) => String(row['UUID']))
    const written = { kind: 'view', query: {}, columns: ['lastName'], format: 'csv', uuids: chosen }
    expect(await app.invoke('export:start', written)).toMatchObject({ status: 'written', rows: 4 })
    const [latest] = (await app.invoke('changes:history')) as ChangeHistoryEntry[]
    app.savePath.next = join(out, 'changes.xlsx')
    expect(await app.invoke('changes:export', { runId: latest!.runId, format: 'xlsx' })).toMatchObject({
      status: 'written',
    })
    const payCycleId = String(someone['payCycleId'] ?? '')
    const roster = { kind: 'roster', payCycleId: payCycleId || 'PC-1', columns: ['lastName'], format: 'csv' }
    app.savePath.next = join(out, 'roster.csv')
    expect(await app.invoke('export:start', roster)).toMatchObject({ status: 'written' })
    expect(await app.invoke('export:print', { ...view, query: {} })).toMatchObject({ status: 'printed' })
    // A copy of three rows is noted; a copy of one employee's number is not.
    const copy = { uuids: chosen.slice(0, 3), columns: ['employeeNumber', 'annualSalary'], headers: true }
    expect(await app.invoke('export:copy-rows', copy)).toEqual({ rows: 3, columns: 2 })
    const one = { uuids: chosen.slice(0, 1), columns: ['employeeNumber'], headers: false }
    expect(await app.invoke('export:copy-rows', one)).toEqual({ rows: 1, columns: 1 })
    expect(clipboard.map((content) => content.text.split('\r\n')[0])).toEqual([
      'Employee number\tAnnual salary',
      String(someone['employeeNumber']),
    ])
    expect(printed).toHaveLength(1)

    const { entries } = new ExportRecord({ dataDir, runtime: 'app', clock: { now: Date.now } }).read()
    expect(entries).toMatchObject([
      {
        runtime: 'app',
        profile: 'Demo',
        what: 'view',
        format: 'xlsx',
        filters: { searched: true, statuses: ['Active'] },
        columns: ['lastName', 'firstName', 'annualSalary'],
        sensitiveColumns: true,
        fileName: 'searched.xlsx',
        folder: out,
      },
      { what: 'view', chosenRows: true, rows: 4, format: 'csv', sensitiveColumns: false },
      { what: 'changes', runId: latest!.runId, rows: 30, fileName: 'changes.xlsx' },
      { what: 'roster', format: 'csv', fileName: 'roster.csv', folder: out },
      { what: 'print', rows: 30, sensitiveColumns: true },
      { what: 'copy', rows: 3, chosenRows: true, columns: ['employeeNumber', 'annualSalary'] },
    ])
    expect(entries).toHaveLength(6)
    expect(entries[4]).not.toHaveProperty('fileName')
    expect(entries[4]).not.toHaveProperty('format')
    expect(entries[5]).toMatchObject({ sensitiveColumns: true, profile: 'Demo' })
    // Help → Export history lists the same entries, newest first.
    const history = (await app.invoke('export:history')) as { entries: unknown[]; skippedLines: number }
    expect(history).toEqual({ entries: [...entries].reverse(), skippedLines: 0 })
    // No employee's data: none of 50+ known values of the synced employees (names, UUIDs, numbers, e-mails,
    // salaries) is in the record, though each path above wrote them to its file, page or clipboard.
    const text = readFileSync(join(dataDir, EXPORT_RECORD_FILE), 'utf8')
    const values = all.rows.flatMap((row) =>
      ['UUID', 'lastName', 'firstName', 'email', 'employeeNumber', 'annualSalary'].map((key) =>
        String(row[key]),
      ),
    )
    expect(values.length).toBeGreaterThanOrEqual(50)
    expect(values.filter((value) => value.length >= 4 && text.includes(value))).toEqual([])
  })
})
