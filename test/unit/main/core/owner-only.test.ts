import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeExport } from '../../../../src/main/core/export/export-engine'
import { arrayRowSource } from '../../../../src/main/core/export/array-row-source'
import { openFileLog } from '../../../../src/main/core/log/file-log'
import { createOwnerOnlyFile, mkdirOwnerOnly } from '../../../../src/main/core/owner-only'
import { openSettingsFile } from '../../../../src/main/core/settings/settings-file'
import { openSqlite } from '../../../../src/main/core/sqlite/sqlite-open'
import { ABOUT, GENERATED_COLUMNS, generatedRow } from '../../../helpers/export-fixtures'

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8)

/**
 * Issue 31, point 5: on macOS and Linux what RosterDesk creates is its user's only, folders 0700 and files 0600,
 * whatever the umask; what the clerk chose (an export's folder) keeps its mode.
 */
describe.skipIf(process.platform === 'win32')('owner-only folders and files', () => {
  let dir: string
  let umask: number
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rosterdesk-owner-only-'))
    // The usual umask, which leaves group and others reading (0644 files, 0755 folders) unless told otherwise.
    umask = process.umask(0o022)
  })
  afterEach(() => {
    process.umask(umask)
    rmSync(dir, { recursive: true, force: true })
  })

  it('creates each missing folder 0700, even under a umask that takes rights away, and leaves existing ones', () => {
    chmodSync(dir, 0o755)
    process.umask(0o277)
    expect(mkdirOwnerOnly(join(dir, 'a', 'b', 'c'))).toBe(join(dir, 'a'))
    for (const folder of ['a', 'a/b', 'a/b/c']) expect(modeOf(join(dir, folder))).toBe('700')
    expect(modeOf(dir)).toBe('755')
    chmodSync(join(dir, 'a'), 0o750)
    expect(mkdirOwnerOnly(join(dir, 'a', 'b'))).toBeUndefined()
    expect(modeOf(join(dir, 'a'))).toBe('750')
  })

  it('creates a file 0600 under a permissive umask, and leaves an existing one as it is', () => {
    process.umask(0)
    expect(createOwnerOnlyFile(join(dir, 'new'))).toBe(true)
    expect(modeOf(join(dir, 'new'))).toBe('600')
    writeFileSync(join(dir, 'old'), 'kept', { mode: 0o640 })
    expect(createOwnerOnlyFile(join(dir, 'old'))).toBe(false)
    expect(modeOf(join(dir, 'old'))).toBe('640')
  })

  it("creates a SQLite database 0600, and SQLite gives its -wal, -shm and -journal files the database's mode", () => {
    const walPath = join(dir, 'catalog.sqlite')
    const wal = openSqlite(walPath)
    wal.pragma('journal_mode = WAL')
    wal.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)')
    expect(existsSync(`${walPath}-wal`) && existsSync(`${walPath}-shm`)).toBe(true)
    expect([walPath, `${walPath}-wal`, `${walPath}-shm`].map(modeOf)).toEqual(['600', '600', '600'])
    wal.close()

    const journalPath = join(dir, 'run.sqlite')
    const journal = openSqlite(journalPath)
    journal.exec('CREATE TABLE t (x)')
    journal.exec('BEGIN; INSERT INTO t VALUES (1)')
    // The rollback journal exists while the transaction is open.
    expect(modeOf(`${journalPath}-journal`)).toBe('600')
    journal.exec('COMMIT')
    journal.close()
    expect(modeOf(journalPath)).toBe('600')
  })

  it("writes an export file 0600 in the clerk's folder, whose mode is not changed", async () => {
    chmodSync(dir, 0o755)
    const file = join(dir, 'Roster.csv')
    await writeExport({
      source: arrayRowSource([generatedRow(0)]),
      columns: GENERATED_COLUMNS,
      about: ABOUT,
      filePath: file,
      format: 'csv',
    })
    expect(modeOf(file)).toBe('600')
    expect(modeOf(dir)).toBe('755')
  })

  it('creates the settings folder 0700 and writes the settings file 0600 (saved searches name employees)', () => {
    const dataDir = join(dir, 'RosterDesk')
    const settings = openSettingsFile(dataDir, () => undefined)
    settings.set('views', { saved: 'Smith' })
    expect(modeOf(dataDir)).toBe('700')
    expect(modeOf(String(settings.location))).toBe('600')
  })

  it('creates the log folder 0700 and the log file 0600', () => {
    const logsDir = join(dir, 'logs')
    const { logger, logFilePath } = openFileLog({ logsDir, console: false })
    logger.info('started')
    expect(modeOf(logsDir)).toBe('700')
    expect(modeOf(logFilePath)).toBe('600')
  })

  it('leaves a folder that exists, the data folder the clerk named among them, as it was', () => {
    const dataDir = join(dir, 'chosen')
    mkdirSync(dataDir, { mode: 0o755 })
    chmodSync(dataDir, 0o755)
    openSettingsFile(dataDir, () => undefined).set('a', 1)
    expect(modeOf(dataDir)).toBe('755')
  })
})
