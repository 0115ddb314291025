import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../../../src/shared/domain/rows'
import { CSV_NOT_ALLOWED_MESSAGE } from '../../../../src/shared/policy-view'
import { runChangesCommand } from '../../../../src/main/cli/changes-command'
import { runExportCommand } from '../../../../src/main/cli/export-command'
import { openCacheDatabase } from '../../../../src/main/core/cache/cache-database'
import type { PolicyInForce } from '../../../../src/main/core/policy/policy-in-force'
import { employee, seedSnapshot } from '../../../helpers/seed-snapshot'
import { tempFolder } from '../../../helpers/export-fixtures'
import { runCommand } from '../../../helpers/run-cli'
import { TEST_CACHE_KEY } from '../../../helpers/test-cache-key'

/** Twelve employees: eight in pay cycle PC-A, four in PC-B. */
const STAFF: EmployeeRow[] = Array.from({ length: 12 }, (_, index) =>
  employee(`u-${index + 1}`, `First${index + 1}`, `Last${index + 1}`, 'Active', {
    payCycleId: index < 8 ? 'PC-A' : 'PC-B',
  }),
)

/** What the CLI's dispatcher hands each command when the machine's policy allows Excel only, five rows at most. */
const POLICY: PolicyInForce = {
  policy: { exports: { csvAllowed: false, maxRows: 5 } },
  source: '/etc/rosterdesk/policy.json',
  problem: undefined,
}

describe('cli export and changes --out under the machine policy’s export rules', () => {
  let folder: ReturnType<typeof tempFolder>
  let db: string

  beforeAll(async () => {
    folder = tempFolder()
    db = join(folder.path, 'cache.db')
    const cache = openCacheDatabase(db, { key: TEST_CACHE_KEY })
    try {
      await seedSnapshot(cache, STAFF)
    } finally {
      cache.close()
    }
  })
  afterAll(() => folder.remove())

  const outputs = (): string[] => folder.files().filter((name) => /\.(xlsx|csv)$/.test(name))

  it('refuses a .csv as usage (exit 2), saying the rule, before opening the cache', async () => {
    for (const run of [
      await runCommand(runExportCommand, ['--db', db, '--out', join(folder.path, 'all.csv')], {}, POLICY),
      await runCommand(
        runChangesCommand,
        ['--db', db, '--out', join(folder.path, 'changes.csv')],
        {},
        POLICY,
      ),
    ]) {
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(CSV_NOT_ALLOWED_MESSAGE)
      expect(run.stdout).toBe('')
    }
    expect(outputs()).toEqual([])
  })

  it('fails an export over the most rows allowed (exit 1), naming both numbers, with no file left', async () => {
    const view = await runCommand(
      runExportCommand,
      ['--db', db, '--out', join(folder.path, 'all.xlsx')],
      {},
      POLICY,
    )
    expect(view.code).toBe(1)
    expect(view.stderr).toContain(
      'Export failed: This export holds 12 employees; your organisation allows at most 5 in one export.',
    )
    const roster = await runCommand(
      runExportCommand,
      ['--db', db, '--pay-cycle', 'PC-A', '--out', join(folder.path, 'pc-a.xlsx')],
      {},
      POLICY,
    )
    expect(roster.code).toBe(1)
    expect(roster.stderr).toContain('holds 8 employees')
    const changes = await runCommand(
      runChangesCommand,
      ['--db', db, '--out', join(folder.path, 'changes.xlsx')],
      {},
      POLICY,
    )
    expect(changes.code).toBe(1)
    expect(changes.stderr).toContain('holds 12 employees; your organisation allows at most 5')
    expect(outputs()).toEqual([])
  })

  it('writes an export within the rules, and anything without a policy', async () => {
    const roster = await runCommand(
      runExportCommand,
      ['--db', db, '--pay-cycle', 'PC-B', '--out', join(folder.path, 'pc-b.xlsx')],
      {},
      POLICY,
    )
    expect(roster.code).toBe(0)
    expect(JSON.parse(roster.stdout)).toMatchObject({ rows: 4 })
    const free = await runCommand(runExportCommand, ['--db', db, '--out', join(folder.path, 'all.csv')])
    expect(free.code).toBe(0)
    expect(outputs()).toEqual(['all.csv', 'pc-b.xlsx'])
  })
})
