import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { columnLabel } from '../../src/main/core/columns/column-label'
import { ODD_FIELD_NAMES, oddFieldValue } from '../../src/main/sandbox/field-names'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { sandboxCliEnv, sandboxServiceArgs, startCliProcess } from '../helpers/cli-process'
import type { CliResult } from '../helpers/cli-process'
import { makeTempDir } from '../helpers/cache-test-helpers'
import { startTestSandbox } from '../helpers/sandbox'
import { readCsv, readXlsx } from '../helpers/xlsx-reader'

/**
 * Issue 32, point 7: a service adds fields under names a clerk never chose (`Cost Center`, `Job Title/Grade`,
 * formula-like ones, `__proto__`, a NUL, a lone surrogate, 5,000 characters). `export` with no --columns writes
 * every column the cache holds, headed by its name (a formula-like name stays text), and `--columns` names any of
 * them (quoted when it holds a comma or quote). No stack trace reaches the terminal.
 */

/**
 * The header an odd name gets in the XLSX: its label (the name itself unless of a program's shape), the NUL that
 * XML cannot carry dropped, and the lone surrogate half stored as U+FFFD.
 */
function xlsxHeader(name: string): string {
  return columnLabel(name).split('\u0000').join('').split('\ud800').join('\ufffd')
}

/** Names of the identifier shape keep their split label (`dot.ted` → "Dot ted"); any other is its own header. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.-]*$/

function noStackTrace(result: CliResult): void {
  expect(result.stdout).not.toMatch(/^\s+at /m)
  expect(result.stderr).not.toMatch(/^\s+at /m)
}

describe('CLI: every field the cache holds is exportable by its name', () => {
  let sandbox: SandboxHandle
  let dir: string
  let cleanup: () => void
  let db: string

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 32, size: 12, behaviours: { oddFieldNames: true } })
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-field-names-'))
    db = join(dir, 'cache.db')
    const synced = await cli(['sync', ...sandboxServiceArgs(sandbox), '--db', db, '--json'])
    expect(synced.code, synced.stderr).toBe(0)
  })
  afterAll(async () => {
    cleanup()
    await sandbox.close()
  })

  const cli = (args: readonly string[]): Promise<CliResult> =>
    startCliProcess(args, sandboxCliEnv(sandbox)).done

  it('exports every column to .xlsx, headed by the names, a formula-like name as text', async () => {
    const out = join(dir, 'roster.xlsx')
    const result = await cli(['export', '--db', db, '--out', out])
    noStackTrace(result)
    expect(result.code, result.stderr).toBe(0)
    const sheet = (await readXlsx(out)).sheets[0]!
    const header = sheet.rows[0]!.map((cell) => cell?.v ?? null)
    const headerTypes = sheet.rows[0]!.map((cell) => cell?.t ?? null)
    for (const name of ODD_FIELD_NAMES) {
      const column = header.indexOf(xlsxHeader(name))
      expect(column, JSON.stringify(name)).toBeGreaterThanOrEqual(0)
      expect(headerTypes[column]).toBe('s')
      if (!IDENTIFIER.test(name) && !name.includes('\u0000') && !name.includes('\ud800')) {
        expect(header[column]).toBe(name)
      }
      // Every row holds the field's own value under it.
      for (const row of sheet.rows.slice(1)) {
        const uuid = String(row[header.indexOf('UUID')]?.v)
        expect(row[column]?.v, JSON.stringify(name)).toBe(oddFieldValue(ODD_FIELD_NAMES.indexOf(name), uuid))
      }
    }
    expect(header).toContain('Cost Center')
    expect(header).toContain('Job Title/Grade')
    expect(header).toContain('=HYPERLINK("http://evil.example","click")')
    expect(sheet.rows).toHaveLength(13)
  })

  it('exports every column to .csv, a formula-like name prefixed with an apostrophe', async () => {
    const out = join(dir, 'roster.csv')
    const result = await cli(['export', '--db', db, '--out', out])
    noStackTrace(result)
    expect(result.code, result.stderr).toBe(0)
    const [header, ...rows] = (await readCsv(out)).records
    for (const name of ['Cost Center', 'Job Title/Grade', 'Comma, Inc.', 'say "hi"', '  spaced  ']) {
      expect(header).toContain(name)
    }
    for (const name of ['=HYPERLINK("http://evil.example","click")', '+1', '@SUM(1+1)', '-2']) {
      expect(header).toContain(`'${name}`)
    }
    expect(rows).toHaveLength(12)
    const column = header!.indexOf('Job Title/Grade')
    const uuid = rows[0]![header!.indexOf('UUID')]!
    expect(rows[0]![column]).toBe(oddFieldValue(ODD_FIELD_NAMES.indexOf('Job Title/Grade'), uuid))
  })

  it('names columns in --columns, a comma or quote inside a name written CSV-style in double quotes', async () => {
    const out = join(dir, 'chosen.csv')
    const result = await cli([
      'export',
      '--db',
      db,
      '--out',
      out,
      '--columns',
      'UUID, Cost Center,"Comma, Inc.","say ""hi""",__proto__,constructor,"  spaced  "',
    ])
    noStackTrace(result)
    expect(result.code, result.stderr).toBe(0)
    const [header, first] = (await readCsv(out)).records
    expect(header).toEqual([
      'UUID',
      'Cost Center',
      'Comma, Inc.',
      'say "hi"',
      'Proto',
      'Constructor',
      '  spaced  ',
    ])
    const uuid = first![0]!
    expect(first!.slice(1)).toEqual(
      ['Cost Center', 'Comma, Inc.', 'say "hi"', '__proto__', 'constructor', '  spaced  '].map((name) =>
        oddFieldValue(ODD_FIELD_NAMES.indexOf(name), uuid),
      ),
    )
  })
})

describe('CLI: an export over the columns a spreadsheet holds', () => {
  it('refuses 20,013 columns saying the limit and the number asked, with no file and no stack trace', async () => {
    // Three employees of 20,000 extra fields each: a sync of 60,000 values, and an export refused before writing.
    const sandbox = await startTestSandbox({ seed: 32, size: 3, behaviours: { manyFields: 20_000 } })
    const { dir, cleanup } = makeTempDir('rosterdesk-e2e-many-fields-')
    try {
      const db = join(dir, 'cache.db')
      const run = (args: readonly string[]): Promise<CliResult> =>
        startCliProcess(args, sandboxCliEnv(sandbox)).done
      const synced = await run(['sync', ...sandboxServiceArgs(sandbox), '--db', db, '--json'])
      expect(synced.code, synced.stderr).toBe(0)
      const out = join(dir, 'roster.xlsx')
      const result = await run(['export', '--db', db, '--out', out])
      noStackTrace(result)
      expect(result.code).toBe(1)
      // Every column the cache holds: the sandbox's 13 fields and the 20,000 more.
      expect(result.stderr.trim()).toBe(
        'Export failed: An export can hold at most 16,384 columns, the most Excel opens; you asked for 20,013.',
      )
      expect(existsSync(out)).toBe(false)
    } finally {
      cleanup()
      await sandbox.close()
    }
  })
})
