import react from '@vitejs/plugin-react'
import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { cspMetaPlugin } from '../../../scripts/csp-meta-plugin'
import { withDirLock } from '../dir-lock'
import { newestMtime } from '../newest-mtime'

const ROOT = resolve(__dirname, '../../..')
/**
 * Where the browser tests' build of the renderer goes: beside, never inside, the production `out/` that
 * `npm run build` writes and electron-builder packs, so a test run cannot leave its build in an installer.
 */
const TEST_BUILD_DIR = join(ROOT, '.tmp/test-build')
export const RENDERER_OUT_DIR = join(TEST_BUILD_DIR, 'renderer')
/** What the build reads: the renderer, the contract, and the CSP the build writes into index.html. */
const SOURCES = [
  join(ROOT, 'src/renderer'),
  join(ROOT, 'src/shared'),
  join(ROOT, 'src/main/shell/window-and-startup/window-security.ts'),
  join(ROOT, 'scripts/csp-meta-plugin.ts'),
]
const LOCK_DIR = join(TEST_BUILD_DIR, '.renderer-build.lock')

async function builtAt(): Promise<number | undefined> {
  try {
    return (await stat(join(RENDERER_OUT_DIR, 'index.html'))).mtimeMs
  } catch {
    return undefined
  }
}

async function isFresh(): Promise<boolean> {
  const built = await builtAt()
  if (built === undefined) return false
  const sources = await Promise.all(SOURCES.map(newestMtime))
  return Math.max(...sources) <= built
}

/**
 * Builds the renderer exactly as electron-vite's renderer section does (same root, plugins, relative base and
 * output folder), without main and preload, which the browser tests do not need. The CSP plugin makes the browser
 * tests run under the production policy's <meta> as well as the harness's header, as the packaged app does.
 */
async function runViteBuild(): Promise<void> {
  await build({
    configFile: false,
    root: join(ROOT, 'src/renderer'),
    base: './',
    mode: 'production',
    logLevel: 'warn',
    plugins: [react(), cspMetaPlugin()],
    build: {
      outDir: RENDERER_OUT_DIR,
      emptyOutDir: true,
      target: 'chrome130',
      modulePreload: { polyfill: false },
      minify: false,
      reportCompressedSize: false,
      rollupOptions: { input: { index: join(ROOT, 'src/renderer/index.html') } },
    },
  })
}

/**
 * Makes sure the test build holds a build of the current sources: builds when index.html is missing or older than
 * any of SOURCES. Returns the folder to serve.
 */
export async function ensureRendererBuilt(): Promise<string> {
  if (await isFresh()) return RENDERER_OUT_DIR
  await withDirLock(LOCK_DIR, async () => {
    if (!(await isFresh())) await runViteBuild()
  })
  return RENDERER_OUT_DIR
}
