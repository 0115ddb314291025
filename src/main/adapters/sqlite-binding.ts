import { join } from 'node:path'

/**
 * Where the Electron-ABI build of better-sqlite3 lives. Tests and the CLI run on Node and load the addon npm built
 * for Node; `npm start` first runs scripts/electron-sqlite.mjs, which builds one for Electron into `native/` and
 * this path hands it to better-sqlite3's `nativeBinding` option. Packaged apps need none: electron-builder
 * rebuilds the dependency for Electron when it packs it.
 */
export function electronSqliteBinding(isPackaged: boolean, appPath: string): string | undefined {
  if (isPackaged) return undefined
  const tag = `${process.versions.electron ?? 'unknown'}-${process.platform}-${process.arch}`
  return join(appPath, 'native', 'electron', tag, 'better_sqlite3.node')
}
