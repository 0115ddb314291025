import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { sandboxCliEnv, sandboxServiceArgs, startCliProcess } from '../helpers/cli-process'
import type { CliResult } from '../helpers/cli-process'
import { makeTempDir } from '../helpers/cache-test-helpers'
import { rawSnapshot } from '../helpers/raw-snapshot'
import { openCacheDatabase } from '../../src/main/core/cache/cache-database'
import { useSandboxPerTest } from '../helpers/sandbox'
import { readXlsx } from '../helpers/xlsx-reader'
import type { DumpedCell, DumpedSheet } from '../helpers/xlsx-reader'
import { TEST_CACHE_KEY } from '../helpers/test-cache-key'

/**
 * The CLI's `sync` then `export --out x.xlsx` against a service that writes values no double or recursion holds
 * (issue 32, points 5 and 6; the sandbox's `rawFields`): numbers beyond 2^53 are in the cache and the export digit
 * for digit, as text cells; 1e400 and -1e400 are kept as their text and the sync's summary says so; a field
 * nested 100,000 levels deep is kept as the start of its text, marked, and no command prints a stack trace.
 */

const SIZE = 60
const ROW = { page: 1, row: 2 }

describe('CLI sync and export: values kept exactly as the service wrote them', () => {
  const startSandbox = useSandboxPerTest()
  let dir: string
  let cleanup: () => void

  beforeEach(() => {
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-exact-values-'))
  })
  afterEach(() => cleanup())

  async function run(sandbox: SandboxHandle, args: readonly string[]): Promise<CliResult> {
    const result = await startCliProcess(args, sandboxCliEnv(sandbox)).done
    // No stack trace reaches the clerk, whatever the fault (the log keeps it).
    expect(`${result.stdout}\n${result.stderr}`).not.toMatch(/^\s+at /m)
    expect(`${result.stdout}\n${result.stderr}`).not.toMatch(/RangeError|Something went wrong/)
    return result
  }

  async function syncAndExport(sandbox: SandboxHandle): Promise<{ sync: CliResult; sheet: DumpedSheet }> {
    const db = join(dir, 'cache.db')
    const sync = await run(sandbox, ['sync', ...sandboxServiceArgs(sandbox), '--db', db, '--page-size', '20'])
    expect(sync.code, sync.stderr).toBe(0)
    const out = join(dir, 'x.xlsx')
    const exported = await run(sandbox, ['export', '--db', db, '--out', out])
    expect(exported.code, exported.stderr).toBe(0)
    const book = await readXlsx(out)
    return { sync, sheet: book.sheets[0]! }
  }

  /** The cells of the exported row of `uuid`, by header. */
  function rowOf(sheet: DumpedSheet, uuid: string): Map<string, DumpedCell | null> {
    const header = sheet.rows[0]!.map((cell) => String(cell?.v ?? ''))
    const uuidAt = header.indexOf('UUID')
    const row = sheet.rows.find((cells) => cells[uuidAt]?.v === uuid)
    expect(row, `row ${uuid}`).toBeDefined()
    return new Map(header.map((name, index) => [name, row![index] ?? null]))
  }

  it('keeps numbers beyond 2^53 and beyond a double’s range digit for digit, as text cells, and says so', async () => {
    const sandbox = await startSandbox({ size: SIZE, seed: 32 })
    const uuid = String(sandbox.allEmployees()[1]!['UUID'])
    sandbox.setBehaviours({
      rawFields: {
        ...ROW,
        fields: {
          bankAccount: '9007199254740993',
          legacyId: '12345678901234567890',
          annualSalary: '1e400',
          bonus: '-1e400',
        },
      },
    })
    const { sync, sheet } = await syncAndExport(sandbox)
    expect(sync.stdout).toMatch(
      /^Synced 60 employees .* 2 values were too large for a number and were kept as text\.\n$/,
    )

    // Kept in the run log: `status` reads it back, and `--json` carries it.
    const status = await run(sandbox, ['status', '--db', join(dir, 'cache.db'), '--json'])
    expect(JSON.parse(status.stdout)).toMatchObject({ lastComplete: { numbersTooLarge: 2 } })

    const cache = openCacheDatabase(join(dir, 'cache.db'), { key: TEST_CACHE_KEY })
    const stored = (() => {
      try {
        return rawSnapshot(cache.currentSnapshot())
          .prepare('SELECT row_json FROM employees WHERE uuid = ?')
          .pluck()
          .get(uuid) as string
      } finally {
        cache.close()
      }
    })()
    expect(stored).toContain('"bankAccount":"9007199254740993"')
    expect(stored).toContain('"legacyId":"12345678901234567890"')
    expect(stored).toContain('"annualSalary":"1e400"')
    expect(stored).toContain('"bonus":"-1e400"')

    const cells = rowOf(sheet, uuid)
    expect(cells.get('Bank account')).toMatchObject({ v: '9007199254740993', t: 's' })
    expect(cells.get('Legacy ID')).toMatchObject({ v: '12345678901234567890', t: 's' })
    expect(cells.get('Annual salary')).toMatchObject({ v: '1e400', t: 's' })
    expect(cells.get('Bonus')).toMatchObject({ v: '-1e400', t: 's' })
    // The other employees' salaries are still numbers.
    const other = rowOf(sheet, String(sandbox.allEmployees()[0]!['UUID']))
    expect(other.get('Annual salary')).toMatchObject({ t: 'n' })
  })

  it('keeps a field nested 100,000 levels deep as the start of its text, marked, without a stack trace', async () => {
    const sandbox = await startSandbox({ size: SIZE, seed: 32 })
    const uuid = String(sandbox.allEmployees()[1]!['UUID'])
    const depth = 100_000
    sandbox.setBehaviours({
      rawFields: { ...ROW, fields: { notes: '['.repeat(depth) + '"x"' + ']'.repeat(depth) } },
    })
    const { sync, sheet } = await syncAndExport(sandbox)
    expect(sync.stdout).toMatch(/^Synced 60 employees .* 1 long value was shortened/)
    const notes = rowOf(sheet, uuid).get('Notes')
    expect(notes).toMatchObject({ v: '['.repeat(64) + '…', t: 's' })
  })
})
