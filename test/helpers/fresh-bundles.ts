import { stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { withDirLock } from './dir-lock'
import { buildNodeBundles, type NodeBundleBuild } from './node-bundle'
import { newestMtime } from './newest-mtime'

const ROOT = resolve(__dirname, '../..')
/** What the tests' Node bundles are made of: the main process's sources and the shared contract. */
const SOURCES = [join(ROOT, 'src/main'), join(ROOT, 'src/shared')]

async function isFresh(files: readonly string[], sources: readonly string[]): Promise<boolean> {
  const built = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (info) => info.mtimeMs,
        () => undefined,
      ),
    ),
  )
  if (built.some((mtime) => mtime === undefined)) return false
  const oldest = Math.min(...(built as number[]))
  return Math.max(...(await Promise.all(sources.map(newestMtime)))) <= oldest
}

/**
 * The bundles of `spec` (buildNodeBundles) in `spec.outdir`, built when one is missing or older than the sources
 * (src/main, src/shared, and each entry's own folder), one build at a time across the run's workers (a lock in the folder); kept between runs,
 * so a run after no change of the sources builds nothing. Answers each entry's file by name.
 */
export async function freshNodeBundles<Name extends string>(
  spec: NodeBundleBuild & { readonly entries: Readonly<Record<Name, string>> },
): Promise<(name: Name) => string> {
  const file = (name: Name): string => join(spec.outdir, `${name}.js`)
  const files = Object.keys(spec.entries).map((name) => file(name as Name))
  const entries: string[] = Object.values(spec.entries)
  const sources = [...new Set([...SOURCES, ...entries.map((entry) => dirname(resolve(ROOT, entry)))])]
  if (!(await isFresh(files, sources))) {
    await withDirLock(join(spec.outdir, '.build.lock'), async () => {
      if (!(await isFresh(files, sources))) await buildNodeBundles(spec)
    })
  }
  return file
}
