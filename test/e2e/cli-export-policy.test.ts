import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import { CSV_NOT_ALLOWED_MESSAGE } from '../../src/shared/policy-view'
import { openCacheDatabase } from '../../src/main/core/cache/cache-database'
import { startCliProcess } from '../helpers/cli-process'
import { makeTempDir } from '../helpers/cache-test-helpers'
import { employee, seedSnapshot } from '../helpers/seed-snapshot'

/** Twelve employees: eight in pay cycle PC-A, four in PC-B. */
const STAFF: EmployeeRow[] = Array.from({ length: 12 }, (_, index) =>
  employee(`u-${index + 1}`, `First${index + 1}`, `Last${index + 1}`, 'Active', {
    payCycleId: index < 8 ? 'PC-A' : 'PC-B',
  }),
)

/**
 * The machine policy's export rules on the command line, each command a process of its own as a scheduled job
 * runs it, with the policy named by ROSTERDESK_POLICY_FILE (decision 043): Excel only, five employees at most.
 */
describe('CLI: exports under the machine policy', () => {
  let dir: string
  let cleanup: () => void
  let db: string
  let out: string
  let env: Record<string, string>

  beforeAll(async () => {
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-cli-export-policy-'))
    db = join(dir, 'cache.db')
    const cache = openCacheDatabase(db)
    try {
      await seedSnapshot(cache, STAFF)
    } finally {
      cache.close()
    }
    out = join(dir, 'out')
    mkdirSync(out)
    const policyFile = join(dir, 'policy.json')
    writeFileSync(policyFile, JSON.stringify({ exports: { csvAllowed: false, maxRows: 5 } }))
    env = { ROSTERDESK_POLICY_FILE: policyFile, ROSTERDESK_USER_DATA_DIR: join(dir, 'data') }
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
})
