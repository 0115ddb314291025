import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { WorkerEntry } from '../../src/main/core-host/worker/worker-host'
import { withDirLock } from './dir-lock'
import { buildNodeBundles } from './node-bundle'
import { newestMtime } from './newest-mtime'

const ROOT = resolve(__dirname, '../..')
/** Beside the renderer's test build (.tmp/test-build), never in `out/`, which the installers pack. */
const OUT_DIR = join(ROOT, '.tmp/test-build/node')
const BUNDLE = join(OUT_DIR, 'core-worker.js')
const LOCK_DIR = join(OUT_DIR, '.core-worker-build.lock')
/** What the worker's bundle is made of: the main process's sources and the shared contract. */
const SOURCES = [join(ROOT, 'src/main'), join(ROOT, 'src/shared')]

async function isFresh(): Promise<boolean> {
  const built = await stat(BUNDLE).then(
    (info) => info.mtimeMs,
    () => undefined,
  )
  if (built === undefined) return false
  return Math.max(...(await Promise.all(SOURCES.map(newestMtime)))) <= built
}

/**
 * The core worker as the tests start it: `src/main/core-host/worker/core-worker.ts` bundled once per change of the
 * sources (esbuild, as the app's bundle is one file beside main's), so each worker a test starts loads one file
 * instead of compiling some 200 modules through tsx (about 0.6 s of CPU per start). Native and lazily loaded
 * packages (better-sqlite3, exceljs) stay in node_modules, found from the repository as the source's are.
 */
export async function testCoreWorkerEntry(): Promise<WorkerEntry> {
  if (!(await isFresh())) {
    await withDirLock(LOCK_DIR, async () => {
      if (await isFresh()) return
      await buildNodeBundles({
        entries: { 'core-worker': 'src/main/core-host/worker/core-worker.ts' },
        outdir: OUT_DIR,
        external: ['better-sqlite3', 'exceljs'],
        sourcemap: true,
      })
    })
  }
  return { file: BUNDLE, execArgv: [] }
}
