import { createWriteStream, existsSync, mkdirSync, readdirSync } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ChangeHistoryEntry } from '../../../../../src/shared/domain/changes'
import type { SettingsView } from '../../../../../src/shared/domain/settings'
import { writeExport } from '../../../../../src/main/core/export/export-engine'
import { arrayRowSource } from '../../../../../src/main/core/export/array-row-source'
import { CUSTOM_PROPERTIES_INTERNAL, loadExcelJs } from '../../../../../src/main/core/export/exceljs-loader'
import { XlsxWriter } from '../../../../../src/main/core/export/xlsx-writer'
import { loadMachinePolicy } from '../../../../../src/main/core/policy/policy-sources'
import { policySchema } from '../../../../../src/main/core/policy/policy-schema'
import { parseRegistryReport } from '../../../../../src/main/core/policy/registry-query'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'
import { sandbox, startApp, syncNow, tempDir } from '../../../../helpers/app-core-under-test'
import { ABOUT, GENERATED_COLUMNS, generatedRow, tempFolder } from '../../../../helpers/export-fixtures'
import { readXlsx, type DumpedWorkbook } from '../../../../helpers/xlsx-reader'

/**
 * The machine policy's sensitivity label (issue 34, point 4): read from the policy file and the registry, kept
 * out of what the renderer sees, and written into every XLSX (a view, a roster, a change report) as the
 * `MSIP_Label_<GUID>_*` custom properties Office reads; never into a file it could not label.
 */

const LABEL = {
  id: '9203368F-916C-4D59-8292-9F1C6A1E8F39',
  name: 'Confidential – HR',
  siteId: '6C15903A-880E-4E17-818A-6CB4F7935615',
}
const PREFIX = 'MSIP_Label_9203368f-916c-4d59-8292-9f1c6a1e8f39_'

/** The file's label properties by name, as Python's zipfile and ElementTree find them. */
function labelOf(workbook: DumpedWorkbook): Map<string, string | null> {
  return new Map((workbook.customProperties?.properties ?? []).map((p) => [p.name, p.value]))
}

describe('the sensitivity label in the machine policy', () => {
  it('takes a label GUID, a name and a tenant GUID, keeping the GUIDs lower case', () => {
    const parsed = policySchema.parse({ exports: { sensitivityLabel: LABEL } })
    expect(parsed.exports?.sensitivityLabel).toEqual({
      id: '9203368f-916c-4d59-8292-9f1c6a1e8f39',
      name: 'Confidential – HR',
      siteId: '6c15903a-880e-4e17-818a-6cb4f7935615',
    })
  })

  it('refuses a label it could not write, naming the key and what it wants', () => {
    const problems = (label: unknown): string[] => {
      const result = policySchema.safeParse({ exports: { sensitivityLabel: label } })
      return result.success ? [] : result.error.issues.map((issue) => issue.message)
    }
    expect(problems({ ...LABEL, id: 'Confidential' })).toEqual([
      '"exports.sensitivityLabel.id" must be the label\'s GUID, a GUID like 00000000-0000-0000-0000-000000000000.',
    ])
    expect(problems({ id: LABEL.id, name: LABEL.name })).toHaveLength(1)
    expect(problems({ ...LABEL, name: '  ' })[0]).toContain("is the label's name")
    expect(problems({ ...LABEL, name: 'HR\u0007' })[0]).toContain('control character')
    expect(problems({ ...LABEL, colour: 'red' })).toEqual([
      '"exports.sensitivityLabel" holds "id", "name" and "siteId" only, not colour.',
    ])
    expect(problems('Confidential')).toEqual([
      '"exports.sensitivityLabel" must be an object with "id", "name" and "siteId".',
    ])
  })

  it('reads the label from the registry as one JSON value, SensitivityLabel', async () => {
    const registry = parseRegistryReport(
      JSON.stringify({
        values: [
          {
            key: 'HKEY_LOCAL_MACHINE\\Software\\Policies\\RosterDesk',
            name: 'SensitivityLabel',
            kind: 'String',
            data: JSON.stringify(LABEL),
          },
        ],
      }),
    )
    const policy = await loadMachinePolicy({
      platform: 'win32',
      env: {},
      packaged: true,
      readMachineFile: () => Promise.reject(new Error('not read: the registry holds the policy')),
      readNamedFile: () => Promise.reject(new Error('not read')),
      queryRegistry: () => Promise.resolve(registry),
    })
    expect(policy.problem).toBeUndefined()
    expect(policy.policy?.exports?.sensitivityLabel?.name).toBe('Confidential – HR')
  })
})

describe('a labelled XLSX', () => {
  it('has no custom properties part without a label, and exactly one with it', async () => {
    const folder = tempFolder()
    try {
      const write = async (name: string, label?: typeof LABEL) => {
        const filePath = join(folder.path, name)
        await writeExport({
          source: arrayRowSource([generatedRow(1), generatedRow(2)], 10),
          columns: GENERATED_COLUMNS,
          about: ABOUT,
          filePath,
          format: 'xlsx',
          rules: {
            csvAllowed: true,
            maxRows: undefined,
            ...(label === undefined ? {} : { sensitivityLabel: label }),
          },
        })
        return readXlsx(filePath)
      }
      expect((await write('plain.xlsx')).customProperties).toBeNull()
      const labelled = await write(
        'labelled.xlsx',
        policySchema.parse({ exports: { sensitivityLabel: LABEL } }).exports!.sensitivityLabel!,
      )
      expect(labelled.customProperties).toMatchObject({ relationships: 1, part: '/docProps/custom.xml' })
      // The label is set when the file is made: the About sheet's time.
      expect(labelOf(labelled).get(`${PREFIX}SetDate`)).toBe(
        ABOUT.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      )
      expect(labelOf(labelled).get(`${PREFIX}Name`)).toBe('Confidential – HR')
    } finally {
      folder.remove()
    }
  })

  it('is refused, before a row is written, when exceljs moved the parts the label goes into', async () => {
    const folder = tempFolder()
    try {
      const excel = await loadExcelJs()
      const out = createWriteStream(join(folder.path, 'never.xlsx'))
      expect(
        () =>
          new XlsxWriter({
            out,
            excel: { ...excel, movedInternals: [CUSTOM_PROPERTIES_INTERNAL] },
            columns: GENERATED_COLUMNS,
            about: ABOUT,
            maxRowsPerSheet: 100,
            checkpoint: () => undefined,
            sensitivityLabel: { ...LABEL, id: LABEL.id.toLowerCase() },
          }),
      ).toThrow(
        'RosterDesk could not give this file your organisation\'s sensitivity label ("Confidential – HR"), so it was not saved.',
      )
      out.destroy()
      await once(out, 'close')
    } finally {
      folder.remove()
    }
  })
})

describe('the label through the real app core', () => {
  it('labels the view’s export and the change report, and the renderer is never told the label', async () => {
    const demo = await sandbox({ size: 12, seed: 4 })
    const dataDir = tempDir()
    const out = join(dataDir, 'exports')
    mkdirSync(out)
    const app = await startApp(demo, dataDir, new MemoryKeyValueBackend(), new MemorySecretStore(), {
      policy: {
        policy: policySchema.parse({ exports: { sensitivityLabel: LABEL } }),
        source: '/etc/rosterdesk/policy.json',
        problem: undefined,
      },
    })
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 12 })
    expect(((await app.invoke('settings:get')) as SettingsView).policy.exports).toEqual({
      csvAllowed: true,
      maxRows: undefined,
    })

    app.savePath.next = join(out, 'view.xlsx')
    const view = { kind: 'view', query: {}, columns: ['lastName'], format: 'xlsx' }
    expect(await app.invoke('export:start', view)).toMatchObject({ status: 'written', rows: 12 })
    const [latest] = (await app.invoke('changes:history')) as ChangeHistoryEntry[]
    app.savePath.next = join(out, 'changes.xlsx')
    expect(await app.invoke('changes:export', { runId: latest!.runId, format: 'xlsx' })).toMatchObject({
      status: 'written',
    })
    // A CSV cannot carry document properties; it is written as before.
    app.savePath.next = join(out, 'view.csv')
    expect(await app.invoke('export:start', { ...view, format: 'csv' })).toMatchObject({ status: 'written' })
    expect(readdirSync(out).sort()).toEqual(['changes.xlsx', 'view.csv', 'view.xlsx'])
    for (const file of ['view.xlsx', 'changes.xlsx']) {
      const label = labelOf(await readXlsx(join(out, file)))
      expect(label.get(`${PREFIX}Enabled`), file).toBe('true')
      expect(label.get(`${PREFIX}SiteId`), file).toBe('6c15903a-880e-4e17-818a-6cb4f7935615')
    }
    expect(existsSync(join(out, 'view.xlsx'))).toBe(true)
  })
})
