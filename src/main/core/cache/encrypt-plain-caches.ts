import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fsyncDirectory } from '../durable-fs'
import { isRosterDeskError, RosterDeskError } from '../errors'
import { silentLogger, type Logger } from '../log/logger'
import { mkdirOwnerOnly, OWNER_FILE_MODE } from '../owner-only'
import { CACHE_FILE_NAME } from '../settings/profile-store'
import { rekeyPragmas, type CacheKey } from '../sqlite/cache-key'
import { isDamage, openSqlite, sqliteCode, storageError, type SqliteDatabase } from '../sqlite/sqlite-open'
import { setAsideDir } from './set-aside-cache'
import { WriterLock, type WriterLockDeps } from './writer-lock'

/**
 * The caches of versions before issue 34, encrypted at the first start of this one (decision 063): every plain
 * SQLite file of a profile (the catalog, snapshots, change logs, files set aside as damaged, and the same in the
 * set-aside copy beside the cache folder), known by SQLite's 16-byte header, whatever its name.
 *
 * All or nothing per profile, and never an employee in neither file: each plain file is copied under a temporary
 * name beside it (`<name>.encrypting`, 0600), the copy encrypted in place (`PRAGMA rekey`), opened with the key and
 * its tables counted against the original's, then flushed. Only when every copy is ready does a journal in the
 * cache folder say so (written whole: a temporary file, flushed, renamed); then each copy is renamed over its
 * original (atomic in one folder), the folders flushed, the journal removed. A start that finds the journal
 * finishes the renames; one that finds copies without it deletes them and begins again, the originals untouched.
 */

/** What every plain SQLite database file begins with. */
const PLAIN_HEADER = Buffer.from('SQLite format 3\0', 'latin1')
const TEMP_SUFFIX = '.encrypting'
const JOURNAL_FILE = '.encrypting.json'
const SIDE_SUFFIXES = ['-journal', '-wal', '-shm'] as const

/** The steps the migration passes, in order (the per-file ones once per file); a test stops it at each. */
export const ENCRYPTION_STEPS = [
  /** A cut-off run's copies removed, or its renames finished. */
  'leftovers-cleared',
  /** A plain file's journal or WAL folded into it, its tables counted. */
  'settled',
  /** Copied under its temporary name. */
  'copied',
  /** The copy encrypted in place. */
  'encrypted',
  /** The copy opened with the key, its tables counted alike. */
  'verified',
  /** The copy on the disk. */
  'synced',
  /** Just before a failure's copies are deleted. */
  'discarding',
  /** Every copy ready: the journal says so. */
  'journal-written',
  /** One copy renamed over its plain file. */
  'placed',
  /** A damaged plain file deleted. */
  'removed',
  /** Folders flushed, journal gone. */
  'done',
] as const
export type EncryptionStep = (typeof ENCRYPTION_STEPS)[number]

export interface EncryptPlainCachesDeps {
  readonly logger?: Logger
  /** The clock of the writer lock's owner record. */
  readonly now?: () => Date
  /** Who takes the writer lock and how a previous owner's life is judged (a test's restart stands for a process). */
  readonly writerLock?: WriterLockDeps
  /** Called as the migration passes each step (a test throws here to stop it there, as a kill would). */
  readonly checkpoint?: (step: EncryptionStep, path: string) => void
}

export interface EncryptionReport {
  /** The files now encrypted, relative to the cache folder's parent. */
  readonly encrypted: readonly string[]
  /** Plain files SQLite could not read (damaged, or a killed run's unfinished file): deleted, not encrypted. */
  readonly removed: readonly string[]
  /** Whether a run cut off earlier was found (and finished or undone). */
  readonly resumed: boolean
}

/**
 * Encrypts with `key` every plain SQLite file of the profile whose cache folder is `cacheDir` (and of its set-aside
 * copy, set-aside-cache.ts), all or nothing (above). Belongs at each start before anything opens the profile's
 * cache, after the caches' move: in the app, in `settleCacheFolders` (core-host/process/serve-core-process.ts)
 * once `moveCaches` is done, for each profile's `caches.cacheDir(id)`; in the CLI, where `--profile` resolves its
 * folder (cli/profile-flag.ts). Cheap when there is nothing to do (a header read per file, no lock). It takes the
 * profile's writer lock (writer-lock.ts) itself for the work, so the caller holds none, only the key; a sync
 * holding it (an older `cli sync` still running) fails with 'busy' and the files stay as they were, to be
 * encrypted at the next start. Synchronous: a million employees' snapshot takes seconds (decision 063). Any other
 * failure (a full disk) is a storage error with every file as before; a failure while renaming leaves the journal,
 * and the next call finishes the job. A profile it failed on must not be opened with the key meanwhile.
 */
export function encryptPlainCaches(
  cacheDir: string,
  key: CacheKey,
  deps: EncryptPlainCachesDeps = {},
): EncryptionReport {
  const folders = [cacheDir, setAsideDir(cacheDir)]
  const pending = findFiles(folders)
  if (pending.plain.length === 0 && pending.temps.length === 0 && !existsSync(journalPath(cacheDir))) {
    return { encrypted: [], removed: [], resumed: false }
  }
  mkdirOwnerOnly(cacheDir)
  const lock = WriterLock.acquire(
    join(cacheDir, CACHE_FILE_NAME),
    (deps.now ?? (() => new Date()))(),
    deps.writerLock,
  )
  try {
    const step = (name: EncryptionStep, path: string): void => deps.checkpoint?.(name, path)
    const root = dirname(cacheDir)
    const report = { encrypted: [] as string[], removed: [] as string[], resumed: false }
    report.resumed = resume(cacheDir, folders, step, report, root)
    const copies: Copy[] = []
    const damaged: string[] = []
    try {
      for (const source of findFiles(folders).plain) {
        const copy = prepareCopy(source, key, step)
        if (copy === 'damaged') damaged.push(source)
        else copies.push(copy)
      }
      for (const copy of copies) assertUnchanged(copy)
    } catch (error) {
      step('discarding', cacheDir)
      for (const copy of copies) removeWithSides(copy.temp)
      for (const { temp } of findFiles(folders).temps) removeWithSides(temp)
      throw isRosterDeskError(error) ? error : storageError(error, cacheDir)
    }
    if (copies.length + damaged.length === 0) return report
    writeJournal(cacheDir, { remove: damaged.map((path) => relative(cacheDir, path)) })
    step('journal-written', cacheDir)
    place(cacheDir, folders, damaged, step, report, root)
    const log = deps.logger ?? silentLogger
    log.info(`Encrypted ${report.encrypted.length} saved-employee files of ${cacheDir}`)
    if (report.removed.length > 0) {
      log.warn(
        `Deleted ${report.removed.length} damaged saved-employee files of ${cacheDir}: ${report.removed.join(', ')}`,
      )
    }
    return report
  } finally {
    lock.release()
  }
}

/** A plain file's encrypted copy, ready to take its name. */
interface Copy {
  readonly source: string
  readonly temp: string
  /** The source as it was once settled; a change since (another process writing) cancels the run. */
  readonly size: number
  readonly mtimeMs: number
}

/** What a file holds, as far as the copy must match it. */
interface Facts {
  readonly applicationId: number
  readonly userVersion: number
  readonly rows: ReadonlyMap<string, number>
}

function prepareCopy(
  source: string,
  key: CacheKey,
  step: (name: EncryptionStep, path: string) => void,
): Copy | 'damaged' {
  const temp = source + TEMP_SUFFIX
  try {
    const facts = withConnection(openSqlite(source, { fileMustExist: true }), (db) => {
      // Folds a WAL into the file (a hot rollback journal was rolled back by the first read), so the copy of the
      // one file holds everything; closing the last connection then deletes the emptied WAL.
      db.pragma('wal_checkpoint(TRUNCATE)')
      return factsOf(db)
    })
    const { size, mtimeMs } = statSync(source)
    step('settled', source)
    removeWithSides(temp)
    copyFileSync(source, temp)
    // copyFile gives the copy the original's mode, which an older version may have left wider.
    chmodSync(temp, OWNER_FILE_MODE)
    step('copied', temp)
    withConnection(openSqlite(temp, { fileMustExist: true }), (db) => {
      // A copy of nothing anyone reads yet: no journal to roll back to (a cut-off rekey is a discarded copy).
      db.unsafeMode(true)
      db.pragma('journal_mode = OFF')
      db.unsafeMode(false)
      for (const pragma of rekeyPragmas(key)) db.pragma(pragma)
    })
    step('encrypted', temp)
    const copied = withConnection(openSqlite(temp, { key, readonly: true, fileMustExist: true }), factsOf)
    if (!sameFacts(facts, copied)) {
      throw new RosterDeskError(
        'storage',
        'The saved employees could not be encrypted; RosterDesk tries again at its next start.',
        {
          detail: `encrypt ${source}: the encrypted copy differs (${describeFacts(copied)} vs ${describeFacts(facts)})`,
        },
      )
    }
    step('verified', temp)
    fsyncFile(temp)
    step('synced', temp)
    return { source, temp, size, mtimeMs }
  } catch (error) {
    if (!isDamaged(error)) throw error
    removeWithSides(temp)
    return 'damaged'
  }
}

function factsOf(db: SqliteDatabase): Facts {
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[]
  const rows = new Map<string, number>()
  for (const table of tables) {
    rows.set(
      table,
      Number(
        db
          .prepare(`SELECT count(*) FROM "${table.replace(/"/g, '""')}"`)
          .pluck()
          .get(),
      ),
    )
  }
  return {
    applicationId: Number(db.pragma('application_id', { simple: true })),
    userVersion: Number(db.pragma('user_version', { simple: true })),
    rows,
  }
}

function sameFacts(a: Facts, b: Facts): boolean {
  return (
    a.applicationId === b.applicationId &&
    a.userVersion === b.userVersion &&
    describeFacts(a) === describeFacts(b)
  )
}

function describeFacts(facts: Facts): string {
  return [...facts.rows].map(([table, count]) => `${table}=${count}`).join(' ')
}

function withConnection<T>(db: SqliteDatabase, use: (db: SqliteDatabase) => T): T {
  try {
    return use(db)
  } finally {
    db.close()
  }
}

function isDamaged(error: unknown): boolean {
  if (isRosterDeskError(error)) return error.code === 'damaged-cache'
  return isDamage(sqliteCode(error))
}

/** Another process wrote the original after it was copied (no writer lock is needed to write a catalog's log). */
function assertUnchanged(copy: Copy): void {
  const { size, mtimeMs } = statSync(copy.source)
  const wal = `${copy.source}-wal`
  if (size === copy.size && mtimeMs === copy.mtimeMs && (!existsSync(wal) || statSync(wal).size === 0)) return
  throw new RosterDeskError(
    'busy',
    'Another RosterDesk window or command is using the saved employees; they are encrypted at the next start.',
    { detail: `encrypt ${copy.source}: changed while it was copied` },
  )
}

/**
 * The start of every run, under the lock: a journal means every copy was ready, so the renames are finished;
 * copies without one are a run cut off before that, deleted (their originals are untouched). True when either.
 */
function resume(
  cacheDir: string,
  folders: readonly string[],
  step: (name: EncryptionStep, path: string) => void,
  report: { encrypted: string[]; removed: string[] },
  root: string,
): boolean {
  rmSync(`${journalPath(cacheDir)}.tmp`, { force: true })
  const journal = readJournal(cacheDir)
  // Not one this migration wrote whole: nothing to finish.
  if (journal === undefined) rmSync(journalPath(cacheDir), { force: true })
  const temps = findFiles(folders).temps
  if (journal === undefined && temps.length === 0) return false
  if (journal === undefined) for (const { temp } of temps) removeWithSides(temp)
  else
    place(
      cacheDir,
      folders,
      journal.remove.map((path) => join(cacheDir, path)),
      step,
      report,
      root,
    )
  step('leftovers-cleared', cacheDir)
  return true
}

/** Gives every ready copy its original's name, deletes the damaged originals, then flushes and drops the journal. */
function place(
  cacheDir: string,
  folders: readonly string[],
  damaged: readonly string[],
  step: (name: EncryptionStep, path: string) => void,
  report: { encrypted: string[]; removed: string[] },
  root: string,
): void {
  const touched = new Set<string>([cacheDir])
  for (const { temp, source } of findFiles(folders).temps) {
    // The original's side files are empty or gone (settled); a plain -shm must not meet the encrypted file.
    for (const suffix of SIDE_SUFFIXES) rmSync(source + suffix, { force: true })
    renameSync(temp, source)
    touched.add(dirname(source))
    report.encrypted.push(relative(root, source))
    step('placed', source)
  }
  for (const path of damaged) {
    removeWithSides(path)
    touched.add(dirname(path))
    report.removed.push(relative(root, path))
    step('removed', path)
  }
  for (const folder of touched) fsyncDirectory(folder)
  rmSync(journalPath(cacheDir), { force: true })
  fsyncDirectory(cacheDir)
  step('done', cacheDir)
}

interface Found {
  /** Plain SQLite files, by their header. */
  readonly plain: readonly string[]
  /** The copies of a run, with the originals they stand for. */
  readonly temps: ReadonlyArray<{ readonly temp: string; readonly source: string }>
}

/** Every regular file under `folders` (missing ones are fine) that is plain SQLite, or a run's copy. */
function findFiles(folders: readonly string[]): Found {
  const plain: string[] = []
  const temps: Array<{ temp: string; source: string }> = []
  const visit = (folder: string): void => {
    let names: string[]
    try {
      names = readdirSync(folder)
    } catch {
      return
    }
    for (const name of names.sort()) {
      const path = join(folder, name)
      const stats = lstatSync(path, { throwIfNoEntry: false })
      if (stats === undefined || stats.isSymbolicLink()) continue
      if (stats.isDirectory()) visit(path)
      else if (!stats.isFile()) continue
      else if (name.endsWith(TEMP_SUFFIX))
        temps.push({ temp: path, source: path.slice(0, -TEMP_SUFFIX.length) })
      else if (!isSideFile(name) && name !== JOURNAL_FILE && hasPlainHeader(path)) plain.push(path)
    }
  }
  for (const folder of folders) visit(folder)
  return { plain, temps }
}

function isSideFile(name: string): boolean {
  return SIDE_SUFFIXES.some((suffix) => name.endsWith(suffix))
}

function hasPlainHeader(path: string): boolean {
  const header = Buffer.alloc(PLAIN_HEADER.length)
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    return readSync(fd, header, 0, header.length, 0) === header.length && header.equals(PLAIN_HEADER)
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

function removeWithSides(path: string): void {
  rmSync(path, { force: true })
  for (const suffix of SIDE_SUFFIXES) rmSync(path + suffix, { force: true })
}

/** Windows flushes a file only through a handle that may write. */
function fsyncFile(path: string): void {
  const fd = openSync(path, 'r+')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** The journal of a run whose copies are all ready: the damaged originals to delete, relative to the cache folder. */
interface Journal {
  readonly remove: readonly string[]
}

function journalPath(cacheDir: string): string {
  return join(cacheDir, JOURNAL_FILE)
}

function writeJournal(cacheDir: string, journal: Journal): void {
  const path = journalPath(cacheDir)
  writeFileSync(`${path}.tmp`, JSON.stringify(journal), { mode: OWNER_FILE_MODE })
  fsyncFile(`${path}.tmp`)
  renameSync(`${path}.tmp`, path)
  fsyncDirectory(cacheDir)
}

function readJournal(cacheDir: string): Journal | undefined {
  let text: string
  try {
    text = readFileSync(journalPath(cacheDir), 'utf8')
  } catch {
    return undefined
  }
  try {
    const value = JSON.parse(text) as { remove?: unknown }
    if (Array.isArray(value.remove) && value.remove.every((item) => typeof item === 'string')) {
      return { remove: value.remove.filter((item: string) => !item.startsWith('..')) }
    }
  } catch {
    // Written whole (renamed into place): anything else is none of ours.
  }
  return undefined
}
