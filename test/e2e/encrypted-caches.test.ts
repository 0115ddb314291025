import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { CACHE_KEY_FILE_NAME } from '../../src/main/core/secrets/cache-key-file'
import type { AppUnderTest } from '../helpers/harness'
import { allEmployeesText, useUiSession } from '../helpers/harness/ui-session'
import { sandboxCliEnv, sandboxServiceArgs, startCliProcess } from '../helpers/cli-process'
import { useScratch } from '../helpers/run-cli'

/**
 * Issue 34, point 1's acceptance: after a `cli sync` and after a sync in the app, no employee's name, UUID or
 * salary is in clear in any file under the data folders (every byte of every file searched for 50 values taken
 * from the synced data, as text and as the 8-byte numbers SQLite stores), no file starts with SQLite's plain
 * header, and the CLI and the app open what they wrote and answer as before. The same search finds the values
 * in a CSV export, outside the data folders: the values are searched in the form they take.
 */

const SIZE = 240
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1')

const session = useUiSession({ sandbox: { size: SIZE, seed: 34 }, start: 'synced' })
const scratch = useScratch()
let sandbox: SandboxHandle
let app: AppUnderTest
beforeAll(() => ({ sandbox, app } = session()))

/** 50 values of the synced data: 17 employees' last name, UUID and salary (the last one's salary left out). */
function knownValues(): { text: string[]; salaries: number[] } {
  const employees = sandbox.allEmployees()
  const picked = Array.from({ length: 17 }, (_, i) => employees[(i * 13) % employees.length]!)
  const text = picked.flatMap((employee) => [String(employee['lastName']), String(employee['UUID'])])
  const salaries = picked.slice(0, 16).map((employee) => Number(employee['annualSalary']))
  expect(new Set(text).size).toBeGreaterThan(30)
  expect(salaries.every((salary) => Number.isFinite(salary) && salary > 0)).toBe(true)
  return { text, salaries }
}

/** The byte patterns a value may take in a file: its text, and a salary's IEEE double both ways round. */
function patterns(values: { text: string[]; salaries: number[] }): Array<{ what: string; bytes: Buffer }> {
  const numbers = values.salaries.flatMap((salary) => {
    const little = Buffer.alloc(8)
    little.writeDoubleLE(salary)
    const big = Buffer.alloc(8)
    big.writeDoubleBE(salary)
    return [
      { what: `salary ${salary}`, bytes: Buffer.from(String(salary), 'utf8') },
      { what: `salary ${salary} (double)`, bytes: little },
      { what: `salary ${salary} (double, big-endian)`, bytes: big },
    ]
  })
  return [...values.text.map((text) => ({ what: text, bytes: Buffer.from(text, 'utf8') })), ...numbers]
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

/** Every file under `folders` that holds one of the values in clear, or starts with SQLite's plain header. */
function clearTextFindings(
  folders: readonly string[],
  values: { text: string[]; salaries: number[] },
): string[] {
  const wanted = patterns(values)
  const findings: string[] = []
  for (const file of folders.flatMap(filesUnder)) {
    const bytes = readFileSync(file)
    if (bytes.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) findings.push(`${file}: plain SQLite`)
    for (const { what, bytes: pattern } of wanted)
      if (bytes.includes(pattern)) findings.push(`${file}: ${what}`)
  }
  return findings
}

describe('every cache encrypted at rest (issue 34, point 1)', () => {
  it('after cli sync: nothing in clear under the data folder, the key file 0600 outside the cache; search and export answer', async () => {
    const values = knownValues()
    const dataDir = join(scratch.tempDir('rosterdesk-encrypted-cli-'), 'RosterDesk')
    const db = join(dataDir, 'cache', 'employees.sqlite')
    // --db's folder must exist (the CLI makes only a --profile's); the CLI makes its key file beside it.
    mkdirSync(join(dataDir, 'cache'), { recursive: true, mode: 0o700 })
    const env = { ROSTERDESK_USER_DATA_DIR: dataDir }
    const cli = (args: readonly string[], extra: Record<string, string> = {}) =>
      startCliProcess(args, { ...env, ...extra }).done
    for (let run = 0; run < 2; run++) {
      const synced = await cli(
        ['sync', ...sandboxServiceArgs(sandbox), '--db', db, '--json'],
        sandboxCliEnv(sandbox),
      )
      expect(synced.stderr, synced.stdout).toBe('')
      expect(JSON.parse(synced.stdout), synced.stdout).toMatchObject({ status: 'complete', stored: SIZE })
    }
    const keyFile = join(dataDir, CACHE_KEY_FILE_NAME)
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    expect(filesUnder(join(dataDir, 'cache')).some((file) => file.endsWith(CACHE_KEY_FILE_NAME))).toBe(false)
    // Snapshots and change logs were written, and searched with the rest.
    const files = filesUnder(dataDir).map((file) => file.slice(dataDir.length))
    expect(files.some((file) => /snapshots\/snapshot-.*\.sqlite$/.test(file))).toBe(true)
    expect(files.some((file) => /changes\/changes-.*\.sqlite$/.test(file))).toBe(true)
    expect(clearTextFindings([dataDir], values)).toEqual([])

    // The CLI opens what it wrote: a search finds an employee, an export holds them all.
    const target = sandbox.allEmployees()[13]!
    const found = await cli(['search', '--db', db, '--q', String(target['UUID']), '--json'])
    expect(found.code).toBe(0)
    expect(JSON.parse(found.stdout)).toMatchObject({
      rows: [expect.objectContaining({ UUID: target['UUID'] })],
    })
    const out = join(scratch.tempDir('rosterdesk-encrypted-export-'), 'all.csv')
    expect((await cli(['export', '--db', db, '--out', out])).code).toBe(0)
    // The same search finds the values in the export: they are searched in the form the files would hold them.
    const csv = readFileSync(out)
    for (const { bytes } of patterns(values).filter((p) => !/double/.test(p.what))) {
      expect(csv.includes(bytes)).toBe(true)
    }
  })

  it('after a sync in the app: nothing in clear under its data folder, and the app answers from its cache', async () => {
    const values = knownValues()
    const { page } = session()
    await page.getByText(allEmployeesText(SIZE)).waitFor()
    const files = filesUnder(app.dataDir)
    expect(files.some((file) => /\.snapshots\/snapshot-.*\.sqlite$/.test(file))).toBe(true)
    expect(clearTextFindings([app.dataDir], values)).toEqual([])
    const target = sandbox.allEmployees()[26]!
    const answer = await app.core.handlers['employees:query']({
      text: String(target['UUID']),
      offset: 0,
      limit: 5,
    })
    expect(answer).toMatchObject({ total: 1, rows: [expect.objectContaining({ UUID: target['UUID'] })] })
  })
})
