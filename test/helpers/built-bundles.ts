import { spawn } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { withDirLock } from './dir-lock'
import { newestMtime } from './newest-mtime'

const ROOT = resolve(__dirname, '../..')
export const MAIN_BUNDLE = join(ROOT, 'out/main/index.js')
export const PRELOAD_BUNDLE = join(ROOT, 'out/preload/index.js')
const SOURCES = ['src/main', 'src/preload', 'src/shared', 'electron.vite.config.ts', 'package.json'].map(
  (p) => join(ROOT, p),
)
const LOCK_DIR = join(ROOT, '.tmp/shell-build.lock')

async function isFresh(): Promise<boolean> {
  try {
    const built = Math.min((await stat(MAIN_BUNDLE)).mtimeMs, (await stat(PRELOAD_BUNDLE)).mtimeMs)
    const sources = await Promise.all(SOURCES.map(newestMtime))
    return Math.max(...sources) <= built
  } catch {
    return false
  }
}

function runBuild(): Promise<void> {
  return new Promise((resolveBuild, reject) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    )
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolveBuild() : reject(new Error(`electron-vite build failed (${code}): ${stderr}`)),
    )
  })
}

/**
 * The shell tests load the bundles `npm run build` writes, the ones that ship. CI builds them just before the
 * tests; run alone (`npm test` on a fresh clone, or after editing main), they are built here first, once for
 * all test files (a directory lock; one left by a crash expires).
 */
export async function ensureBuiltBundles(): Promise<void> {
  if (await isFresh()) return
  await withDirLock(LOCK_DIR, async () => {
    if (!(await isFresh())) await runBuild()
  })
}
