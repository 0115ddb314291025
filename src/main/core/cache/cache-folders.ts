import { join, posix, win32 } from 'node:path'
import { FIRST_PROFILE_ID, profileCacheDir, profileDataDir } from '../settings/profile-store'
import { setAsideDir } from './set-aside-cache'

/**
 * Where each profile's employee cache lives (decision 046). On Windows the caches (large, personal, tied to this
 * computer) live in the local, non-roaming app data folder while the settings and the log stay in the roaming
 * one; elsewhere both are the one data folder. Every user of a cache folder (the app core, the CLI's
 * `--profile`) asks this, never joins the data folder itself.
 */
export interface CacheFolders {
  /** The folder new caches go to. */
  readonly root: string
  /** The profile's cache folder; its set-aside copy is its sibling (set-aside-cache.ts). */
  cacheDir(profileId: string): string
  /** Everything the profile keeps beside the settings (what deleting the profile removes, set-aside aside). */
  profileDir(profileId: string): string
}

/** Every profile's caches under one root. */
export function cacheFoldersAt(root: string): CacheFolders {
  return {
    root,
    cacheDir: (profileId) => profileCacheDir(root, profileId),
    profileDir: (profileId) => profileDataDir(root, profileId),
  }
}

/**
 * The folders, relative to a root, that hold one profile's caches and so move together: the first profile's
 * cache and its set-aside copy (two folders at the root, where a release before profiles kept its cache), any
 * other profile's own folder. The cache folder itself comes last, so a move that stops half way leaves the cache
 * where the profile is found (`locateCacheFolders`).
 */
export function profileCacheFolders(profileId: string): readonly string[] {
  if (profileId === FIRST_PROFILE_ID) {
    const cache = profileCacheDir('', profileId)
    return [setAsideDir(cache), cache]
  }
  return [profileDataDir('', profileId)]
}

/** A Windows path: a drive letter, or a UNC share. */
const WINDOWS_PATH = /^(?:[A-Za-z]:[\\/]|\\\\)/

/** What decides the cache root: the data folder in use, and what it would be without an override. */
export interface CacheRootInput {
  /** The data folder in use (settings, log). */
  readonly dataDir: string
  /**
   * The data folder the OS gives when nothing overrides it (Electron's `userData`; the CLI's `appDataDir` with no
   * flag). A data folder chosen elsewhere (`ROSTERDESK_USER_DATA_DIR`, `--data-dir`) keeps everything in it.
   */
  readonly defaultDataDir: string
  readonly platform: NodeJS.Platform
  readonly env: NodeJS.ProcessEnv
  /** The user's home folder, for the rare Windows session without `LOCALAPPDATA`. */
  readonly home: string
}

/**
 * The cache root: on Windows `%LOCALAPPDATA%\<the data folder's name>` (`RosterDesk`, or `RosterDesk-development`
 * for `npm start`), else the data folder itself. Electron names no local app data folder: `app.getPath` knows
 * `appData`, `userData`, `sessionData`, `cache` and `userCache`, and on Windows the last two are the roaming
 * folder too (electron/electron shell/browser/api/electron_api_app.cc `GetPathConstant`, "cache" →
 * base::DIR_ROAMING_APP_DATA; shell/common/electron_paths.cc, DIR_USER_CACHE: "there's no OS-level centralized
 * location for caches"), so the folder comes from `LOCALAPPDATA`, which Windows sets in every user session.
 */
export function cacheRootFor(input: CacheRootInput): string {
  if (input.platform !== 'win32') return input.dataDir
  // Paths are joined in their own style: Windows' on Windows, and a POSIX path where a test on another OS tells
  // the code it runs on Windows (the shell's stand-in), so no folder is ever named with backslashes there.
  const path = WINDOWS_PATH.test(input.dataDir) ? win32 : posix
  if (path.resolve(input.dataDir).toLowerCase() !== path.resolve(input.defaultDataDir).toLowerCase()) {
    return input.dataDir
  }
  const local = input.env['LOCALAPPDATA']
  const base = local !== undefined && local.trim() !== '' ? local : path.join(input.home, 'AppData', 'Local')
  return path.join(base, path.basename(path.resolve(input.dataDir)))
}

/**
 * Finds each profile's caches where they are: under `dataDir` while any of its folders is still there (a move
 * not yet done, postponed because the cache was in use, or a conflict left for a person), else under
 * `cacheRoot`. Asked at each use, so a profile moved at a later start is found there. When both roots are one
 * folder (macOS, Linux, an overridden data folder) this is `cacheFoldersAt(dataDir)`.
 */
export function locateCacheFolders(
  exists: (path: string) => boolean,
  dataDir: string,
  cacheRoot: string,
): CacheFolders {
  const old = cacheFoldersAt(dataDir)
  const current = cacheFoldersAt(cacheRoot)
  if (dataDir === cacheRoot) return current
  const at = (profileId: string): CacheFolders =>
    profileCacheFolders(profileId).some((folder) => exists(join(dataDir, folder))) ? old : current
  return {
    root: cacheRoot,
    cacheDir: (profileId) => at(profileId).cacheDir(profileId),
    profileDir: (profileId) => at(profileId).profileDir(profileId),
  }
}
