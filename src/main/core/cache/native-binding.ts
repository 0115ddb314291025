import { join } from 'node:path'

/**
 * Where scripts/electron-sqlite.mjs puts better-sqlite3 built for Electron's ABI (Node's build cannot load in
 * Electron): `<root>/native/electron/<electronVersion>-<platform>-<arch>/better_sqlite3.node`. The Electron main
 * process passes this path to `openCacheDatabase(path, { nativeBinding })` when it runs from the source tree
 * (`npm start`), with `process.versions.electron`, `process.platform` and `process.arch`. The script computes the
 * same path; a unit test keeps the two in step.
 */
export function electronBindingPath(
  root: string,
  electronVersion: string,
  platform: string,
  arch: string,
): string {
  return join(root, 'native', 'electron', `${electronVersion}-${platform}-${arch}`, 'better_sqlite3.node')
}
