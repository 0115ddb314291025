import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative } from 'node:path'
import type { Logger } from '../log/logger'
import { CACHE_FILE_NAME, FIRST_PROFILE_ID, isProfileId, profileCacheDir } from '../settings/profile-store'
import { profileCacheFolders } from './cache-folders'
import { RosterDeskError } from '../errors'
import { mkdirOwnerOnly, OWNER_FILE_MODE } from '../owner-only'
import { WriterLock, writerLockPathOf, type WriterLockDeps } from './writer-lock'

/**
 * The file operations the move makes, given once so a test can stop it at any step (a fault-injecting wrapper)
 * and start it again. Every change to the disk goes through one of the mutating ones.
 */
export interface MoveFs {
  exists(path: string): boolean
  isDirectory(path: string): boolean
  /** The names in a folder. */
  list(path: string): string[]
  readText(path: string): string | undefined
  /** Creates a folder and its parents; an existing one is fine. */
  mkdir(path: string): void
  /** One atomic rename; EXDEV when `to` is on another volume. */
  rename(from: string, to: string): void
  /** Removes a file or a folder with everything in it; a missing one is fine. */
  remove(path: string): void
  copyFile(from: string, to: string): void
  writeText(path: string, text: string): void
  /** Flushes a file (or makes a folder's entries durable, where the OS can). */
  fsync(path: string, directory: boolean): void
}

/** MoveFs over Node's fs. */
export const nodeMoveFs: MoveFs = {
  exists: (path) => existsSync(path),
  isDirectory: (path) => lstatSync(path).isDirectory(),
  list: (path) => readdirSync(path),
  readText: (path) => {
    try {
      return readFileSync(path, 'utf8')
    } catch {
      return undefined
    }
  },
  mkdir: (path) => void mkdirOwnerOnly(path),
  rename: (from, to) => renameSync(from, to),
  remove: (path) => rmSync(path, { recursive: true, force: true }),
  copyFile: (from, to) => copyFileSync(from, to),
  writeText: (path, text) => writeFileSync(path, text, { mode: OWNER_FILE_MODE }),
  fsync: (path, directory) => {
    let fd: number | undefined
    try {
      // Windows flushes a file only through a handle that may write, and cannot flush a folder at all.
      fd = openSync(path, directory ? 'r' : 'r+')
      fsyncSync(fd)
    } catch (error) {
      if (!directory) throw error
    } finally {
      if (fd !== undefined) closeSync(fd)
    }
  },
}

export interface CacheMoveDeps {
  readonly fs: MoveFs
  /** Where the caches were (the roaming data folder). */
  readonly from: string
  /** Where they go (the local one). */
  readonly to: string
  readonly logger: Logger
  /** The clock the writer lock's owner record takes. */
  readonly now?: () => Date
  /** Who takes the writer lock and how its owner's life is judged (a test's restart stands for a new process). */
  readonly writerLock?: WriterLockDeps
}

/** What one start's move did, per profile. */
export interface CacheMoveReport {
  readonly moved: { readonly profileId: string; readonly how: 'renamed' | 'copied' }[]
  /** Left where they were, and why (in use, a copy already at the destination, a failure). */
  readonly kept: { readonly profileId: string; readonly reason: string }[]
}

/**
 * The note of the profile being moved, in the destination: `copying` while its copies are written under
 * temporary names (a restart discards them: the originals are untouched), `placing` once they are complete (a
 * restart finishes: the copies take their names, then the originals go), or a `rename` under way (a restart
 * renames what is left, or renames back what was renamed when the rest is in use).
 */
interface MoveJournal {
  readonly profileId: string
  readonly how: 'rename' | 'copy'
  readonly phase: 'copying' | 'placing'
}

const JOURNAL_FILE = '.cache-move.json'
const COPY_SUFFIX = '.moving'
const TRASH_SUFFIX = '.moved'
/** What Windows answers when a file in the folder is open (a CLI reading or syncing the cache). */
const IN_USE_CODES = new Set(['EPERM', 'EBUSY', 'EACCES'])

/**
 * Moves every profile's caches from `from` to `to` (decision 046), one profile at a time, each all or nothing:
 * a rename when both are on one volume, else a copy under temporary names in the destination, flushed, renamed
 * into place, and only then the originals renamed aside and deleted. A journal in the destination lets the next
 * start finish or undo a move that was cut off, so a profile's employees are always whole in one place or the
 * other (`locateCacheFolders` finds which). The cache's writer lock is held for each profile's move; a profile
 * whose cache is in use (a sync holds its lock, or Windows refuses a rename) stays where it is, used there, and
 * moves at a later start. Synchronous: it runs before
 * anything opens a cache.
 */
export function moveCaches(deps: CacheMoveDeps): CacheMoveReport {
  const report: CacheMoveReport = { moved: [], kept: [] }
  if (deps.from === deps.to) return report
  finishInterrupted(deps, report)
  for (const profileId of profilesAt(deps)) moveProfile(deps, profileId, report)
  removeIfEmpty(deps.fs, join(deps.from, 'profiles'))
  for (const { profileId, how } of report.moved) {
    deps.logger.info(`Moved profile ${profileId}'s saved employees to ${deps.to} (${how})`)
  }
  for (const { profileId, reason } of report.kept) {
    deps.logger.warn(`Profile ${profileId}'s saved employees stay in ${deps.from}: ${reason}`)
  }
  return report
}

/** Whether `moveCaches` has anything to do: a move cut off earlier, or a profile's folder still under `from`. */
export function hasCachesToMove(deps: CacheMoveDeps): boolean {
  if (deps.from === deps.to) return false
  return deps.fs.exists(join(deps.to, JOURNAL_FILE)) || profilesAt(deps).length > 0
}

/** The profiles with a folder under `from`. */
function profilesAt({ fs, from }: CacheMoveDeps): string[] {
  const ids: string[] = []
  if (profileCacheFolders(FIRST_PROFILE_ID).some((folder) => fs.exists(join(from, folder)))) {
    ids.push(FIRST_PROFILE_ID)
  }
  const profilesDir = join(from, 'profiles')
  if (fs.exists(profilesDir)) {
    ids.push(...fs.list(profilesDir).filter((name) => isProfileId(name) && name !== FIRST_PROFILE_ID))
  }
  return ids
}

/** One folder of a profile: where it is, where it goes, and the names the move gives it meanwhile. */
interface FolderMove {
  readonly source: string
  readonly target: string
  readonly copy: string
  readonly trash: string
}

function folderMoves({ from, to }: CacheMoveDeps, profileId: string): FolderMove[] {
  return profileCacheFolders(profileId).map((folder) => ({
    source: join(from, folder),
    target: join(to, folder),
    copy: join(to, folder) + COPY_SUFFIX,
    trash: join(from, folder) + TRASH_SUFFIX,
  }))
}

function moveProfile(deps: CacheMoveDeps, profileId: string, report: CacheMoveReport): void {
  const { fs } = deps
  const folders = folderMoves(deps, profileId).filter((folder) => fs.exists(folder.source))
  if (folders.length === 0) return
  // Never taken over: a copy already there came from elsewhere (an older release run since, a person).
  const taken = folders.find((folder) => fs.exists(folder.target))
  if (taken !== undefined) {
    report.kept.push({ profileId, reason: `${taken.target} already exists; remove one of the two by hand` })
    return
  }
  // The cache's writer lock, held for the whole move: a `cli sync` cannot start writing while the files are
  // copied at different moments (the catalog, its -wal, the snapshots), nor the original be deleted under it.
  const cacheDir = profileCacheDir(deps.from, profileId)
  const lock = fs.exists(cacheDir) ? takeWriterLock(deps, join(cacheDir, CACHE_FILE_NAME)) : undefined
  if (lock === 'busy') {
    report.kept.push({ profileId, reason: 'a sync holds the cache (moved at a later start)' })
    return
  }
  try {
    for (const folder of folders) {
      fs.remove(folder.copy)
      fs.mkdir(dirname(folder.target))
    }
    writeJournal(deps, { profileId, how: 'rename', phase: 'placing' })
    const renamed = renameInto(deps, profileId, report, () => lock?.release(deps))
    if (renamed === 'other-volume') copyProfile(deps, profileId, folders, report, lock?.path)
  } finally {
    lock?.release(deps)
  }
}

/** The writer lock on a cache, while the move holds it. */
interface MoveLock {
  /** The lock file, in the folder that moves (never copied). */
  readonly path: string
  /** Lets go of it: where it was, and where a rename of its folder took it. */
  release(deps: CacheMoveDeps): void
}

/** Takes the cache's writer lock (writer-lock.ts), or 'busy' when a sync holds it. */
function takeWriterLock(deps: CacheMoveDeps, catalogPath: string): MoveLock | 'busy' {
  let lock: WriterLock
  try {
    lock = WriterLock.acquire(catalogPath, (deps.now ?? (() => new Date()))(), deps.writerLock)
  } catch (error) {
    if (error instanceof RosterDeskError && error.code === 'busy') return 'busy'
    throw error
  }
  const mine = deps.fs.readText(lock.path)
  const moved = writerLockPathOf(join(deps.to, relative(deps.from, catalogPath)))
  let released = false
  return {
    path: lock.path,
    // Through MoveFs, like every change the move makes (WriterLock.release only removes the file too).
    release: ({ fs }) => {
      if (released) return
      released = true
      fs.remove(lock.path)
      // A rename took the lock file along with its folder: removed there, only if it is still this one.
      if (mine !== undefined && fs.readText(moved) === mine) fs.remove(moved)
    },
  }
}

/**
 * Renames each folder left at its source to its target. On another volume, or when a folder is in use, what was
 * renamed goes back and the journal is dropped; any other failure propagates with the journal kept (the next start
 * finishes it). `renamed` runs once all are in place, before the journal goes (the writer lock the rename took
 * along is let go there, so a start cut off before that finds the journal and lets it go then).
 */
function renameInto(
  deps: CacheMoveDeps,
  profileId: string,
  report: CacheMoveReport,
  renamed: () => void,
): 'done' | 'other-volume' | 'in-use' {
  const { fs } = deps
  const folders = folderMoves(deps, profileId)
  try {
    for (const folder of folders) {
      if (fs.exists(folder.source) && !fs.exists(folder.target)) fs.rename(folder.source, folder.target)
    }
  } catch (error) {
    const code = errorCode(error)
    if (code !== 'EXDEV' && (code === undefined || !IN_USE_CODES.has(code))) throw error
    for (const folder of folders) {
      if (fs.exists(folder.target) && !fs.exists(folder.source)) fs.rename(folder.target, folder.source)
    }
    dropJournal(deps)
    if (code === 'EXDEV') return 'other-volume'
    report.kept.push({ profileId, reason: 'the cache is in use (moved at a later start)' })
    return 'in-use'
  }
  syncParents(deps, folders)
  renamed()
  dropJournal(deps)
  report.moved.push({ profileId, how: 'renamed' })
  return 'done'
}

/**
 * The move across volumes: each folder copied under its temporary name, flushed; then the journal says the copies
 * are whole and `placeCopies` gives them their names. A failure while copying (a full disk) discards the copies
 * and keeps the profile where it was.
 */
function copyProfile(
  deps: CacheMoveDeps,
  profileId: string,
  folders: readonly FolderMove[],
  report: CacheMoveReport,
  lockPath: string | undefined,
): void {
  const { fs } = deps
  writeJournal(deps, { profileId, how: 'copy', phase: 'copying' })
  try {
    for (const folder of folders) copyTree(fs, folder.source, folder.copy, lockPath)
    syncParents(deps, folders)
  } catch (error) {
    for (const folder of folders) fs.remove(folder.copy)
    dropJournal(deps)
    report.kept.push({ profileId, reason: `copying failed (${describe(error)})` })
    return
  }
  writeJournal(deps, { profileId, how: 'copy', phase: 'placing' })
  placeCopies(deps, profileId, report)
}

/**
 * Gives whole copies their names, then renames the originals aside and deletes them. An original in use goes
 * back and the copies are deleted: the profile stays where it was.
 */
function placeCopies(deps: CacheMoveDeps, profileId: string, report: CacheMoveReport): void {
  const { fs } = deps
  const folders = folderMoves(deps, profileId)
  try {
    for (const folder of folders) {
      if (fs.exists(folder.copy) && !fs.exists(folder.target)) fs.rename(folder.copy, folder.target)
    }
    syncParents(deps, folders)
    for (const folder of folders) {
      if (fs.exists(folder.source)) fs.rename(folder.source, folder.trash)
    }
  } catch (error) {
    const code = errorCode(error)
    if (code === undefined || !IN_USE_CODES.has(code)) throw error
    for (const folder of folders) {
      if (fs.exists(folder.trash) && !fs.exists(folder.source)) fs.rename(folder.trash, folder.source)
      fs.remove(folder.target)
      fs.remove(folder.copy)
    }
    dropJournal(deps)
    report.kept.push({ profileId, reason: 'the cache is in use (moved at a later start)' })
    return
  }
  for (const folder of folders) fs.remove(folder.trash)
  dropJournal(deps)
  report.moved.push({ profileId, how: 'copied' })
}

/** What a start finds of a move cut off (a crash, a power cut): finished, or undone where it cannot be. */
function finishInterrupted(deps: CacheMoveDeps, report: CacheMoveReport): void {
  // A journal cut off before its rename into place: the one in force (if any) is the previous.
  const partial = join(deps.to, `${JOURNAL_FILE}.tmp`)
  if (deps.fs.exists(partial)) deps.fs.remove(partial)
  const journal = readJournal(deps)
  if (journal === undefined) return
  deps.logger.info(`Finishing the move of profile ${journal.profileId}'s saved employees cut off earlier`)
  if (journal.how === 'rename') {
    renameInto(deps, journal.profileId, report, () =>
      clearStaleLock(deps, join(profileCacheDir(deps.to, journal.profileId), CACHE_FILE_NAME)),
    )
  } else if (journal.phase === 'placing') {
    placeCopies(deps, journal.profileId, report)
  } else {
    for (const folder of folderMoves(deps, journal.profileId)) deps.fs.remove(folder.copy)
    dropJournal(deps)
  }
}

/**
 * The writer lock a cut-off rename took along with its folder: its owner (the process cut off) is gone, so it is
 * taken over and let go, as the next sync would; a live owner's (a sync since) stays.
 */
function clearStaleLock(deps: CacheMoveDeps, catalogPath: string): void {
  if (!deps.fs.exists(writerLockPathOf(catalogPath))) return
  const lock = takeWriterLock(deps, catalogPath)
  if (lock !== 'busy') deps.fs.remove(lock.path)
}

/** Copies a folder tree, flushing every file and folder; the move's own lock file is left out. */
function copyTree(fs: MoveFs, from: string, to: string, lockPath: string | undefined): void {
  fs.mkdir(to)
  for (const name of fs.list(from)) {
    const source = join(from, name)
    const target = join(to, name)
    if (source === lockPath) continue
    if (fs.isDirectory(source)) {
      copyTree(fs, source, target, lockPath)
    } else {
      fs.copyFile(source, target)
      fs.fsync(target, false)
    }
  }
  fs.fsync(to, true)
}

function syncParents({ fs }: CacheMoveDeps, folders: readonly FolderMove[]): void {
  const parents = new Set(folders.flatMap((folder) => [dirname(folder.source), dirname(folder.target)]))
  for (const parent of parents) if (fs.exists(parent)) fs.fsync(parent, true)
}

function removeIfEmpty(fs: MoveFs, path: string): void {
  if (fs.exists(path) && fs.list(path).length === 0) fs.remove(path)
}

/** Written whole: a temporary file, flushed, renamed over the journal. */
function writeJournal({ fs, to }: CacheMoveDeps, journal: MoveJournal): void {
  fs.mkdir(to)
  const path = join(to, JOURNAL_FILE)
  fs.writeText(`${path}.tmp`, JSON.stringify(journal))
  fs.fsync(`${path}.tmp`, false)
  fs.rename(`${path}.tmp`, path)
  fs.fsync(to, true)
}

function dropJournal({ fs, to }: CacheMoveDeps): void {
  fs.remove(join(to, JOURNAL_FILE))
  fs.fsync(to, true)
}

function readJournal({ fs, to }: CacheMoveDeps): MoveJournal | undefined {
  const text = fs.readText(join(to, JOURNAL_FILE))
  if (text === undefined) return undefined
  try {
    const value = JSON.parse(text) as Partial<MoveJournal>
    if (
      typeof value.profileId === 'string' &&
      isProfileId(value.profileId) &&
      (value.how === 'rename' || value.how === 'copy') &&
      (value.phase === 'copying' || value.phase === 'placing')
    ) {
      return { profileId: value.profileId, how: value.how, phase: value.phase }
    }
  } catch {
    // Not JSON: a journal is written whole (renamed into place), so this is none of ours.
  }
  return undefined
}

/** A file system error's code (`EBUSY`, `EXDEV`), or undefined; what a log may say of it without its paths. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

function describe(error: unknown): string {
  return errorCode(error) ?? (error instanceof Error ? error.message : String(error))
}
