import { win32 } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cacheRootFor, locateCacheFolders } from '../../../../../src/main/core/cache/cache-folders'
import { appFolders } from '../../../../../src/main/cli/profile-flag'

/**
 * Where the caches live (decision 046): on Windows the local app data folder, for the app and the CLI alike;
 * elsewhere, or with a data folder chosen by hand, the data folder. Windows is given by platform and environment,
 * as no Windows runs these tests.
 */
const WINDOWS_ENV = {
  APPDATA: 'C:\\Users\\ana\\AppData\\Roaming',
  LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local',
}
const HOME = 'C:\\Users\\ana'

describe('the cache root', () => {
  it("is %LOCALAPPDATA%\\RosterDesk on Windows, named after the data folder (npm start's too)", () => {
    const root = (dataDir: string) =>
      cacheRootFor({ dataDir, defaultDataDir: dataDir, platform: 'win32', env: WINDOWS_ENV, home: HOME })
    expect(root('C:\\Users\\ana\\AppData\\Roaming\\RosterDesk')).toBe(
      'C:\\Users\\ana\\AppData\\Local\\RosterDesk',
    )
    expect(root('C:\\Users\\ana\\AppData\\Roaming\\RosterDesk-development')).toBe(
      'C:\\Users\\ana\\AppData\\Local\\RosterDesk-development',
    )
  })

  it('falls back to the home folder when a Windows session has no LOCALAPPDATA', () => {
    expect(
      cacheRootFor({
        dataDir: 'C:\\Users\\ana\\AppData\\Roaming\\RosterDesk',
        defaultDataDir: 'C:\\Users\\ana\\AppData\\Roaming\\RosterDesk',
        platform: 'win32',
        env: { APPDATA: WINDOWS_ENV.APPDATA },
        home: HOME,
      }),
    ).toBe('C:\\Users\\ana\\AppData\\Local\\RosterDesk')
  })

  it('is the data folder itself when one was chosen by hand, and on macOS and Linux', () => {
    expect(
      cacheRootFor({
        dataDir: 'D:\\portable\\data',
        defaultDataDir: 'C:\\Users\\ana\\AppData\\Roaming\\RosterDesk',
        platform: 'win32',
        env: WINDOWS_ENV,
        home: HOME,
      }),
    ).toBe('D:\\portable\\data')
    for (const platform of ['darwin', 'linux'] as const) {
      const dataDir = '/home/ana/.config/RosterDesk'
      expect(cacheRootFor({ dataDir, defaultDataDir: dataDir, platform, env: {}, home: '/home/ana' })).toBe(
        dataDir,
      )
    }
  })

  it("joins POSIX paths as POSIX where a test tells the code it runs on Windows (the shell's stand-in)", () => {
    expect(
      cacheRootFor({
        dataDir: '/tmp/shell-test/RosterDesk',
        defaultDataDir: '/tmp/shell-test/RosterDesk',
        platform: 'win32',
        env: {},
        home: '/tmp/shell-test',
      }),
    ).toBe('/tmp/shell-test/AppData/Local/RosterDesk')
  })

  it('treats the default folder written in another case as the default (Windows paths ignore case)', () => {
    expect(
      cacheRootFor({
        dataDir: 'c:\\users\\ana\\appdata\\roaming\\RosterDesk',
        defaultDataDir: 'C:\\Users\\ana\\AppData\\Roaming\\RosterDesk',
        platform: 'win32',
        env: WINDOWS_ENV,
        home: HOME,
      }),
    ).toBe('C:\\Users\\ana\\AppData\\Local\\RosterDesk')
  })
})

describe("the CLI's --profile finds the app's caches", () => {
  // Under a POSIX Node, the profile's part of a path is joined with '/'; Windows' own join gives '\\'.
  const win = (path: string): string => win32.normalize(path)
  const roaming = 'C:\\Users\\ana\\AppData\\Roaming\\RosterDesk'
  const local = 'C:\\Users\\ana\\AppData\\Local\\RosterDesk'

  it('reads the settings from the roaming folder and the caches from the local one once moved', () => {
    const folders = appFolders(undefined, WINDOWS_ENV, 'win32', HOME, () => false)
    expect(folders.dataDir).toBe(roaming)
    expect(win(folders.caches.cacheDir('p1'))).toBe(win32.join(local, 'cache'))
    expect(win(folders.caches.cacheDir('p4'))).toBe(win32.join(local, 'profiles', 'p4', 'cache'))
  })

  it('finds a profile not moved yet (the app has not started since, or its cache was in use) where it is', () => {
    const present = new Set([win32.join(roaming, 'profiles', 'p4')])
    const folders = appFolders(undefined, WINDOWS_ENV, 'win32', HOME, (path) => present.has(win(path)))
    expect(win(folders.caches.cacheDir('p4'))).toBe(win32.join(roaming, 'profiles', 'p4', 'cache'))
    expect(win(folders.caches.cacheDir('p1'))).toBe(win32.join(local, 'cache'))
  })

  it('keeps everything in a data folder named by --data-dir or ROSTERDESK_USER_DATA_DIR, as the app does', () => {
    const byFlag = appFolders('D:\\rd', WINDOWS_ENV, 'win32', HOME, () => false)
    expect(win(byFlag.caches.cacheDir('p1'))).toBe('D:\\rd\\cache')
    const byEnv = appFolders(
      undefined,
      { ...WINDOWS_ENV, ROSTERDESK_USER_DATA_DIR: 'D:\\rd' },
      'win32',
      HOME,
      () => false,
    )
    expect(win(byEnv.caches.cacheDir('p1'))).toBe('D:\\rd\\cache')
  })

  it('finds the caches in the data folder on Linux, as before', () => {
    const folders = appFolders(
      undefined,
      { XDG_CONFIG_HOME: '/home/ana/.config' },
      'linux',
      '/home/ana',
      () => false,
    )
    expect(folders.caches.cacheDir('p1')).toBe('/home/ana/.config/RosterDesk/cache')
    expect(locateCacheFolders(() => true, '/d', '/d').cacheDir('p2')).toBe('/d/profiles/p2/cache')
  })
})
