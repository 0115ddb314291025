import { join } from 'node:path'
import { inject } from 'vitest'

/** The programs end-to-end tests run from bundles (cli-bundle.ts), by name, each from its TypeScript entry. */
export const BUNDLE_ENTRIES = {
  /** The CLI, `npm run cli` (src/main/cli/index.ts). */
  cli: 'src/main/cli/index.ts',
  /** `cli sync` that kills itself at a named step (crash-sync.test.ts). */
  'kill-at-checkpoint': 'test/helpers/kill-at-checkpoint.ts',
  /** A writer of one file that rewrites it until killed (kill-writers.test.ts). */
  'kill-writer': 'test/helpers/kill-writer.ts',
} as const

export type BundleName = keyof typeof BUNDLE_ENTRIES

/**
 * The file of `program` among this run's bundles (built from the current sources by e2e-global-setup.ts), or
 * undefined in a project that builds none.
 */
export function bundledProgram(program: BundleName): string | undefined {
  const dir = inject('cliBundleDir') as string | undefined
  return dir === undefined ? undefined : join(dir, `${program}.js`)
}
