import { lstatSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { writerIsActive } from '../cache/cache-age'
import { setAsideDir } from '../cache/set-aside-cache'
import { removeStalePartFiles } from '../durable-fs'
import { PRINT_FOLDER_NAME } from '../export/print-folder'
import type { Logger } from '../log/logger'
import { CACHE_FILE_NAME, isProfileId, profileCacheDir, profileDataDir } from '../settings/profile-store'
import { processIsAlive } from '../cache/writer-lock'

export interface LeftoverSweepInput {
  /** Where the shell writes print pages (os.tmpdir()). */
  readonly tempDir: string
  /** The folders profiles' caches may be in: the cache root and, on Windows before a move, the data folder. */
  readonly cacheRoots: readonly string[]
  /** Whether `id` was a profile's that is gone (ProfileStore.wasDeleted). */
  readonly wasDeleted: (id: string) => boolean
  /** When this process started (ms since the epoch): what was last written before, by a process gone, is left. */
  readonly startedAt: number
  /** Whether a process runs on this computer (process.kill(pid, 0) by default). */
  readonly isRunning?: (pid: number) => boolean
  readonly logger: Pick<Logger, 'info'>
}

/** What a sweep removed, by kind. */
export interface LeftoverSweep {
  readonly printPages: number
  readonly profileFolders: number
}

/**
 * What a run that ended without cleaning up left behind, removed as the app core starts (createAppCore), before
 * any session opens:
 * - print pages (up to 5,000 rows with pay) a crash or a kill left in the temporary folder: a folder named with a
 *   pid that no longer runs, or (older versions' names) last written before this process started; another
 *   RosterDesk still printing keeps its page, since its pid runs;
 * - the folders of profiles that are gone (`wasDeleted`: a deletion that failed half way under an older version,
 *   which dropped the profile before its data): their whole folder and any set-aside copy, unless a live process
 *   holds the cache's writer lock (a CLI sync that found the profile before it was deleted), kept for the next
 *   start.
 * The CLI sweeps none of these: it cannot tell whether the app is printing or deleting a profile this moment (the
 * same reason it never applies the retention rule, decision 043). What went is logged by kind and count only,
 * never a name (a print page's title and a profile's folder may name employees or clients). Never throws: what
 * cannot be removed stays for the next start.
 */
export function sweepLeftovers(input: LeftoverSweepInput): LeftoverSweep {
  const isRunning = input.isRunning ?? processIsAlive
  const printPages = sweepPrintPages(input.tempDir, input.startedAt, isRunning)
  let profileFolders = 0
  for (const root of new Set(input.cacheRoots)) profileFolders += sweepProfileFolders(root, input.wasDeleted)
  if (printPages + profileFolders > 0) {
    input.logger.info(
      `Start: removed what an earlier run left behind: ${printPages} print page(s), ` +
        `${profileFolders} folder(s) of deleted profiles`,
    )
  }
  return { printPages, profileFolders }
}

function sweepPrintPages(tempDir: string, startedAt: number, isRunning: (pid: number) => boolean): number {
  let removed = 0
  for (const name of namesIn(tempDir)) {
    const match = PRINT_FOLDER_NAME.exec(name)
    if (match === null) continue
    const pid = match[1] === undefined ? undefined : Number(match[1])
    if (pid !== undefined && (pid === process.pid || isRunning(pid))) continue
    const path = join(tempDir, name)
    try {
      const stats = lstatSync(path)
      if (!stats.isDirectory()) continue
      if (pid === undefined && stats.mtimeMs >= startedAt) continue
      rmSync(path, { recursive: true, force: true })
      removed++
    } catch {
      // Another user's (the temporary folder is shared), or gone meanwhile: not ours to remove.
    }
  }
  return removed
}

/** Removes, under one cache root, the folders of deleted profiles; resolves how many profiles' folders went. */
function sweepProfileFolders(root: string, wasDeleted: (id: string) => boolean): number {
  const ids = new Set(namesIn(join(root, 'profiles')).filter(isProfileId))
  // The first profile's folder is `<root>/cache`, beside the others' `profiles/<id>` (profile-store.ts).
  ids.add('p1')
  let removed = 0
  for (const id of ids) {
    if (!wasDeleted(id)) continue
    const dataDir = profileDataDir(root, id)
    const cacheDir = profileCacheDir(root, id)
    const aside = setAsideDir(cacheDir)
    const present = [dataDir, aside].filter(exists)
    if (present.length === 0) continue
    if (writerIsActive(join(cacheDir, CACHE_FILE_NAME))) continue
    try {
      for (const folder of present) rmSync(folder, { recursive: true, force: true })
      removed++
    } catch {
      // A file held open (Windows): left for the next start.
    }
  }
  return removed
}

/** The stale part files an export left in the last export folder, swept at start (see `sweepExportFolder`). */
export interface ExportFolderSweepInput {
  readonly folder: string | undefined
  readonly startedAt: number
  readonly isRunning?: (pid: number) => boolean
  readonly logger: Pick<Logger, 'info'>
}

/**
 * Removes the part files a killed export left in the folder the clerk last exported to (ExportMemory): those whose
 * writer's pid no longer runs on this computer and that were last written before this process started (a
 * writer's process outlives its last write, so such a file can have no writer here); a part file of any live
 * process, this one's or a CLI's, survives. Names without a pid (older versions) go by the same time. A part file
 * of a live export on another computer (a shared folder) has a pid that means nothing here: it is kept only if
 * written since this start, as a running export's file is. Folders elsewhere are swept by the next export into them
 * (export-engine.ts). Resolves with how many went; logs the count, never a name.
 */
export async function sweepExportFolder(input: ExportFolderSweepInput): Promise<number> {
  if (input.folder === undefined) return 0
  const removed = await removeStalePartFiles(input.folder, {
    now: Date.now(),
    lastWrittenBefore: input.startedAt,
    ...(input.isRunning === undefined ? {} : { isRunning: input.isRunning }),
  })
  if (removed > 0)
    input.logger.info(`Start: removed ${removed} partial export file(s) an earlier run left behind`)
  return removed
}

function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder)
  } catch {
    return []
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}
