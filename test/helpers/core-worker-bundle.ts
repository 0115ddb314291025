import { join, resolve } from 'node:path'
import type { WorkerEntry } from '../../src/main/core-host/worker/worker-host'
import { freshNodeBundles } from './fresh-bundles'
import { withCacheKey } from '../../src/main/core-host/worker/worker-cache-key'
import { TEST_CACHE_KEY } from './test-cache-key'

const ROOT = resolve(__dirname, '../..')
/** Beside the renderer's test build (.tmp/test-build), never in `out/`, which the installers pack. */
const OUT_DIR = join(ROOT, '.tmp/test-build/node')
/** Bundle name → its TypeScript entry: the core worker, and the core process that starts it from beside it. */
const ENTRIES = {
  'core-worker': 'src/main/core-host/worker/core-worker.ts',
  'core-process': 'src/main/core-host/core-process.ts',
} as const

/** Both bundles, built together when either is missing or older than the sources. */
const bundles = (): Promise<(name: keyof typeof ENTRIES) => string> =>
  freshNodeBundles({
    entries: ENTRIES,
    outdir: OUT_DIR,
    external: ['better-sqlite3-multiple-ciphers', 'exceljs'],
    sourcemap: true,
  })

/**
 * The core worker as the tests start it: `src/main/core-host/worker/core-worker.ts` bundled once per change of the
 * sources (esbuild, as the app's bundle is one file beside main's), so each worker a test starts loads one file
 * instead of compiling some 200 modules through tsx (about 0.6 s of CPU per start). Native and lazily loaded
 * packages (better-sqlite3, exceljs) stay in node_modules, found from the repository as the source's are. Its
 * cache key is the tests' (TEST_CACHE_KEY); coreWorkerRunners gives it the one it is handed.
 */
export async function testCoreWorkerEntry(): Promise<WorkerEntry> {
  return withCacheKey({ file: (await bundles())('core-worker'), execArgv: [] }, TEST_CACHE_KEY)
}

/**
 * The core process as the tests fork it: `src/main/core-host/core-process.ts` bundled with the core worker
 * (testCoreWorkerEntry), as the app's build has them (out/main/core-process.js beside core-worker.js), so the
 * process starts its worker from the bundle beside it; each fork loads two files instead of compiling the core's
 * modules through tsx, in the process and again in its worker.
 */
export async function testCoreProcessEntry(): Promise<WorkerEntry> {
  return { file: (await bundles())('core-process'), execArgv: [] }
}
