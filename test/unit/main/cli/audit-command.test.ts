import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExportRecordEntry } from '../../../../src/shared/domain/export'
import { TEST_CACHE_KEY } from '../../../helpers/test-cache-key'
import { openCacheDatabase } from '../../../../src/main/core/cache/cache-database'
import { runAuditCommand } from '../../../../src/main/cli/audit-command'
import { runChangesCommand } from '../../../../src/main/cli/changes-command'
import { runExportCommand } from '../../../../src/main/cli/export-command'
import { EXPORT_RECORD_FILE } from '../../../../src/main/core/export-record/export-record'
import { useTestSandbox } from '../../../helpers/sandbox'
import { syncFromSandbox } from '../../../helpers/sync-from-sandbox'
import { runCommand } from '../../../helpers/run-cli'
import { tempFolder } from '../../../helpers/export-fixtures'

/**
 * The CLI's own exports on record (issue 34, point 3): a searched view, a roster and a change report each write one
 * entry of the export record in the data folder, `audit --json` lists them newest first, and the record holds none
 * of the synced employees' values (the search's text among them).
 */
describe('cli audit over the CLI’s own exports', () => {
  const sandbox = useTestSandbox({ size: 40, seed: 34 })
  let folder: ReturnType<typeof tempFolder>
  let db: string
  let env: Record<string, string>
  let dataDir: string
  /** A command as the CLI's dispatcher runs it: told the data folder it resolved (cli/index.ts). */
  const inDataDir =
    (command: typeof runExportCommand): typeof runExportCommand =>
    (args, io) =>
      command(args, { ...io, dataDir })

  beforeAll(async () => {
    folder = tempFolder()
    db = join(folder.path, 'cache.db')
    const cache = openCacheDatabase(db, { key: TEST_CACHE_KEY })
    try {
      await syncFromSandbox(cache, sandbox(), { pageSize: 40, tenantId: 'tenant-demo' })
    } finally {
      cache.close()
    }
    dataDir = join(folder.path, 'data')
    env = { ROSTERDESK_USER_DATA_DIR: dataDir }
  })
  afterAll(() => folder?.remove())

  it('notes a view, a roster and a change report once each; audit --json lists them; no employee data', async () => {
    const everyone = sandbox().allEmployees()
    const someone = everyone[0]!
    const lastName = String(someone['lastName'])
    const out = (name: string): string => join(folder.path, name)
    const view = ['--db', db, '--q', lastName, '--status', 'Active', '--out', out('searched.csv')]
    expect((await runCommand(inDataDir(runExportCommand), view, env)).code).toBe(0)
    const payCycle = String(someone['payCycleId'])
    const roster = ['--db', db, '--pay-cycle', payCycle, '--columns', 'lastName,annualSalary']
    expect(
      (await runCommand(inDataDir(runExportCommand), [...roster, '--out', out('roster.xlsx')], env)).code,
    ).toBe(0)
    expect(
      (await runCommand(inDataDir(runChangesCommand), ['--db', db, '--out', out('changes.xlsx')], env)).code,
    ).toBe(0)

    const audit = await runCommand(runAuditCommand, ['--json'], env)
    expect(audit.code, audit.stderr).toBe(0)
    const listed = JSON.parse(audit.stdout) as { entries: ExportRecordEntry[]; skippedLines: number }
    expect(listed.entries).toMatchObject([
      { runtime: 'cli', what: 'changes', fileName: 'changes.xlsx', folder: folder.path, rows: 40 },
      {
        runtime: 'cli',
        what: 'roster',
        payCycleId: payCycle,
        columns: ['lastName', 'annualSalary'],
        sensitiveColumns: true,
        fileName: 'roster.xlsx',
      },
      {
        runtime: 'cli',
        what: 'view',
        format: 'csv',
        filters: { searched: true, statuses: ['Active'] },
        fileName: 'searched.csv',
      },
    ])
    expect(listed.entries).toHaveLength(3)
    const record = readFileSync(join(dataDir, EXPORT_RECORD_FILE), 'utf8')
    const values = everyone
      .flatMap((row) => ['UUID', 'lastName', 'employeeNumber', 'email'].map((key) => String(row[key] ?? '')))
      .filter((value) => value.length >= 4)
    expect(values.length).toBeGreaterThanOrEqual(50)
    expect(values.filter((value) => record.includes(value))).toEqual([])
  })
})
