import type { TestProject } from 'vitest/node'
import { buildCliBundles } from './cli-bundle'
import { launchChromiumServer } from './chromium'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this run's CLI bundles (cli-bundle.ts); each e2e file starts its CLI processes from it. */
    readonly cliBundleDir: string
    /** This run's Chromium (launchChromiumServer); each browser test file opens contexts of its own in it. */
    readonly chromiumWsEndpoint: string
  }
}

/**
 * The e2e project's once-per-run set-up: the CLI bundles, built from the current sources, and one headless
 * Chromium that every browser test file connects to, each file in fresh contexts of its own (launchChromium).
 * Both go when the run ends.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const bundles = await buildCliBundles()
  let server: Awaited<ReturnType<typeof launchChromiumServer>>
  try {
    server = await launchChromiumServer()
  } catch (error) {
    await bundles.remove()
    throw error
  }
  project.provide('cliBundleDir', bundles.dir)
  project.provide('chromiumWsEndpoint', server.wsEndpoint())
  return async () => {
    await server.close()
    await bundles.remove()
  }
}
