import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { buildNodeBundles } from './node-bundle'
import { BUNDLE_ENTRIES } from './test-bundles'

const ROOT = resolve(__dirname, '../..')
const PREFIX = 'test-cli-'
/** Longer than any run: a folder this old was left by a run that was killed before it could remove its own. */
const LEFT_BY_A_KILLED_RUN_MS = 6 * 60 * 60 * 1000

/**
 * Builds the programs of BUNDLE_ENTRIES (CLI processes and the kill helpers) into one file each in a new folder
 * under .tmp/ (packages stay in node_modules, found from there; each module keeps its source `__dirname`). Returns
 * the folder and its removal. Folders of runs killed hours ago go first.
 */
export async function buildCliBundles(): Promise<{ readonly dir: string; remove(): Promise<void> }> {
  const parent = join(ROOT, '.tmp')
  await mkdir(parent, { recursive: true })
  await removeLeftovers(parent)
  const dir = await mkdtemp(join(parent, PREFIX))
  try {
    await buildNodeBundles({
      entries: BUNDLE_ENTRIES,
      outdir: dir,
      external: 'all-packages',
      sourceLocations: true,
    })
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw error
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

async function removeLeftovers(parent: string): Promise<void> {
  const now = Date.now()
  for (const name of await readdir(parent)) {
    if (!name.startsWith(PREFIX)) continue
    const path = join(parent, name)
    const info = await stat(path).catch(() => undefined)
    if (info !== undefined && now - info.mtimeMs > LEFT_BY_A_KILLED_RUN_MS)
      await rm(path, { recursive: true, force: true })
  }
}
