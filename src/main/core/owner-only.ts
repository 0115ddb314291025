import {
  chmodSync,
  closeSync,
  existsSync,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  type Stats,
} from 'node:fs'
import { dirname, join, resolve } from 'node:path'

/**
 * The one rule for what RosterDesk writes (employee rows, pay, saved searches, tokens, logs): on macOS and Linux
 * every folder it creates is 0700 and every file 0600, readable by the clerk's own account only. The app, the core
 * process and the CLI create their folders with `mkdirOwnerOnly` and open their files with OWNER_FILE_MODE (or
 * `createOwnerOnlyFile`, for a file another library then opens, such as SQLite's). A folder the clerk chose (an
 * export's folder, `--db`'s) is never changed; the file written there is 0600 all the same. SQLite gives a
 * database's -journal, -wal and -shm files the database file's own permissions (os_unix.c, findCreateFileMode
 * and unixOpenSharedMemory), so a database created 0600 keeps its side files 0600 too. On Windows modes do
 * nothing: the files stay under the user's profile folder, whose ACL admits only that user (and administrators),
 * as before.
 */

export const OWNER_DIR_MODE = 0o700
export const OWNER_FILE_MODE = 0o600

const APPLIES = process.platform !== 'win32'

/**
 * Creates `path` and any missing folder above it, one at a time, each set to 0700 as soon as it exists (mkdir's
 * mode is masked by the umask, which could even take the owner's own rights away before the next one is made
 * inside it); folders that already exist, or that another process made meanwhile, keep their mode. Returns the
 * first folder it created, or undefined when `path` existed.
 */
export function mkdirOwnerOnly(path: string): string | undefined {
  const missing: string[] = []
  for (let folder = resolve(path); !existsSync(folder); folder = dirname(folder)) {
    missing.unshift(folder)
    if (dirname(folder) === folder) break
  }
  let first: string | undefined
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode: OWNER_DIR_MODE })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue
      throw error
    }
    if (APPLIES) chmodSync(folder, OWNER_DIR_MODE)
    first ??= folder
  }
  return first
}

/**
 * Creates an empty file at `path`, 0600 whatever the umask, unless it exists (which is left as it is): for a file
 * another library then opens, SQLite's database among them (an empty file is an empty database). True when it
 * created one. A folder that is missing fails here as the library would have (ENOENT).
 */
export function createOwnerOnlyFile(path: string): boolean {
  let fd: number
  try {
    fd = openSync(path, 'wx', OWNER_FILE_MODE)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
  try {
    if (APPLIES) fchmodSync(fd, OWNER_FILE_MODE)
  } finally {
    closeSync(fd)
  }
  return true
}

/**
 * Takes group and others' rights off every folder and file under `roots` that this account owns (folders 0700,
 * files 0600): what versions before the owner-only rule created with the umask's modes (0755, 0644) is tightened
 * at the app's start, as if written today. Symbolic links are neither followed nor changed; what another account
 * owns, or what cannot be read or changed, is left as it is. Returns how many were changed. Does nothing on
 * Windows (see above).
 */
export function tightenToOwnerOnly(roots: readonly string[]): number {
  if (!APPLIES) return 0
  const uid = process.getuid?.()
  let changed = 0
  const visit = (path: string): void => {
    let stats: Stats
    try {
      stats = lstatSync(path)
    } catch {
      return
    }
    if (stats.isSymbolicLink() || (uid !== undefined && stats.uid !== uid)) return
    const wanted = stats.isDirectory() ? OWNER_DIR_MODE : OWNER_FILE_MODE
    if ((stats.isDirectory() || stats.isFile()) && (stats.mode & 0o077) !== 0) {
      try {
        chmodSync(path, (stats.mode & 0o700) | (wanted & 0o700))
        changed++
      } catch {
        // Left as it is: the next start tries again.
      }
    }
    if (!stats.isDirectory()) return
    let names: string[]
    try {
      names = readdirSync(path)
    } catch {
      return
    }
    for (const name of names) visit(join(path, name))
  }
  for (const root of new Set(roots.map((root) => resolve(root)))) visit(root)
  return changed
}

/** Written in the data folder once its tree was tightened: what this version writes is owner-only already. */
const TIGHTENED_MARKER = '.owner-only-v1'

/**
 * `tightenToOwnerOnly` once per data folder: the walk (which passes Chromium's cache folders too) runs at the
 * first start of a version with the owner-only rule, then leaves a marker in `dataDir` and is skipped at every
 * later start. A walk that could not write its marker runs again next time. Returns how many were changed.
 */
export function tightenOlderInstallOnce(dataDir: string, roots: readonly string[]): number {
  if (!APPLIES) return 0
  const marker = join(dataDir, TIGHTENED_MARKER)
  if (existsSync(marker)) return 0
  const changed = tightenToOwnerOnly([dataDir, ...roots])
  try {
    closeSync(openSync(marker, 'w', OWNER_FILE_MODE))
  } catch {
    // Walked again at the next start.
  }
  return changed
}
