import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ChangeEntry, ChangeHistoryEntry } from '../../../../../src/shared/domain/changes'
import type { QueryResult } from '../../../../../src/shared/domain/query'
import type { SettingsView } from '../../../../../src/shared/domain/settings'
import { ExportRecord } from '../../../../../src/main/core/export-record/export-record'
import type { ClipboardContent } from '../../../../../src/main/core/export/copy-rows'
import { sensitiveChangesSource } from '../../../../../src/main/core/export/sensitive-changes'
import type { ChangeEntrySource } from '../../../../../src/main/core/changes/change-history'
import { policySchema } from '../../../../../src/main/core/policy/policy-schema'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'
import { ibanOf } from '../../../../../src/main/sandbox/field-names'
import { sandbox, startApp, syncNow, tempDir } from '../../../../helpers/app-core-under-test'

/** A change report's entries: one whose salary and IBAN changed, one whose department did. */
const ENTRIES: ChangeEntry[] = [
  {
    UUID: 'u-1',
    name: 'Ada Lovelace',
    changes: [
      { field: 'annualSalary', before: 50_000, after: 52_000 },
      { field: 'iban', before: 'DE89370400440532013000', after: 'DE02120300000000202051' },
      { field: 'department', before: 'Sales', after: 'Finance' },
    ],
  },
  { UUID: 'u-2', name: 'Alan Turing', changes: [{ field: 'department', before: 'R&D', after: 'Ops' }] },
]
const source = (): ChangeEntrySource => ({
  counts: { added: 0, removed: 0, changed: 2 },
  batches: () => [ENTRIES],
  close: () => undefined,
})
async function read(from: ChangeEntrySource): Promise<ChangeEntry[]> {
  const entries: ChangeEntry[] = []
  for await (const batch of from.batches('changed', 500)) entries.push(...batch)
  return entries
}

describe("a change report's sensitive fields (issue 34, point 2)", () => {
  it('left out: the field is named, its values are not, and nothing sensitive is said to have gone', async () => {
    const opened = sensitiveChangesSource(source(), false)
    const [ada, alan] = await read(opened.source)
    expect(ada!.changes).toEqual([
      { field: 'annualSalary' },
      { field: 'iban' },
      { field: 'department', before: 'Sales', after: 'Finance' },
    ])
    expect(alan).toEqual(ENTRIES[1])
    expect(opened.source.counts).toEqual({ added: 0, removed: 0, changed: 2 })
    expect(opened.sensitiveWritten()).toBe(false)
  })

  it('included: the entries as they are, and the record is told a sensitive value went', async () => {
    const opened = sensitiveChangesSource(source(), true)
    expect(await read(opened.source)).toEqual(ENTRIES)
    expect(opened.sensitiveWritten()).toBe(true)
    // Only what was read counts: a report with no sensitive change says so.
    const plain = sensitiveChangesSource({ ...source(), batches: () => [[ENTRIES[1]!]] }, true)
    await read(plain.source)
    expect(plain.sensitiveWritten()).toBe(false)
  })
})

describe('exports.sensitiveColumns: "exclude" through the real app core', () => {
  it('writes no sensitive column, whatever the request asks, and the record says none went', async () => {
    const demo = await sandbox({ size: 30, seed: 34 })
    const dataDir = tempDir()
    const out = join(dataDir, 'exports')
    mkdirSync(out)
    const clipboard: ClipboardContent[] = []
    const app = await startApp(demo, dataDir, new MemoryKeyValueBackend(), new MemorySecretStore(), {
      clipboard,
      policy: {
        policy: policySchema.parse({
          exports: { sensitiveColumns: 'exclude' },
          personalData: { maskSensitiveColumns: true },
        }),
        source: '/etc/rosterdesk/policy.json',
        problem: undefined,
      },
    })
    const view = (await app.invoke('settings:get')) as SettingsView
    expect(view.policy).toMatchObject({
      exports: { sensitiveColumns: 'exclude' },
      maskSensitiveColumns: true,
    })
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 30 })
    // The service starts sending an IBAN: the next sync changes every employee's `iban`.
    demo.setBehaviours({ ibanField: true })
    expect(await syncNow(app)).toMatchObject({ status: 'complete' })
    const all = (await app.invoke('employees:query', { limit: 30 })) as QueryResult
    const ibans = all.rows.map((row) => ibanOf(String(row['UUID'])))
    expect(all.rows.map((row) => row['iban'])).toEqual(ibans)

    // A request a compromised window might send: the sensitive columns asked for, "include" answered.
    app.savePath.next = join(out, 'view.csv')
    const request = {
      kind: 'view',
      query: {},
      columns: ['lastName', 'annualSalary', 'iban', 'department'],
      format: 'csv',
      sensitiveColumns: 'include',
    }
    expect(await app.invoke('export:start', request)).toMatchObject({ status: 'written', rows: 30 })
    const csv = readFileSync(join(out, 'view.csv'), 'utf8')
    expect(csv.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe('Last name,Department')
    for (const iban of ibans) expect(csv).not.toContain(iban)

    const [latest] = (await app.invoke('changes:history')) as ChangeHistoryEntry[]
    expect(latest!.changed).toBe(30)
    app.savePath.next = join(out, 'changes.csv')
    const changes = { runId: latest!.runId, format: 'csv', sensitiveColumns: 'include' }
    expect(await app.invoke('changes:export', changes)).toMatchObject({ status: 'written' })
    const report = readFileSync(join(out, 'changes.csv'), 'utf8')
    expect(report).toContain('IBAN')
    for (const iban of ibans) expect(report).not.toContain(iban)

    // A copy the window asks with the sensitive columns: the core leaves them out of text and HTML alike.
    const copied = { uuids: all.rows.slice(0, 3).map((row) => String(row['UUID'])), headers: true }
    const copy = { ...copied, columns: ['lastName', 'annualSalary', 'iban'] }
    expect(await app.invoke('export:copy-rows', copy)).toEqual({ rows: 3, columns: 1 })
    expect(clipboard[0]?.text.split('\r\n')[0]).toBe('Last name')
    for (const iban of ibans) expect(`${clipboard[0]?.text}${clipboard[0]?.html}`).not.toContain(iban)
    await expect(app.invoke('export:copy-rows', { ...copied, columns: ['iban'] })).rejects.toThrow(
      /sensitive/i,
    )

    const { entries } = new ExportRecord({ dataDir, runtime: 'app', clock: { now: Date.now } }).read()
    expect(entries).toMatchObject([
      { what: 'view', columns: ['lastName', 'department'], sensitiveColumns: false },
      { what: 'changes', sensitiveColumns: false },
      { what: 'copy', columns: ['lastName'], rows: 3, sensitiveColumns: false },
    ])
  })
})
