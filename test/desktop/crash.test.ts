import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logsFolder } from '../../src/main/core/log/file-log'
import type { RosterDeskTestHooks } from '../../src/shared/test-hooks'
import { launchPackaged, type LaunchedApp } from './desktop-app'

/**
 * Issue 35, point 1, on a real desktop: what the shell stand-in cannot prove (test/shell/crash-summaries.test.ts
 * proves the rest). The packaged test build's window crashes itself once (process.crash() through the test hook,
 * which only a test build with ROSTERDESK_TEST_HOOKS=1 and main's inspector open has: window-and-startup/test-hooks.ts),
 * Crashpad writes a real dump into `app.getPath('crashDumps')`, and the next start writes the crash's summary line
 * to main.log, naming that dump, and tells the clerk once. Run by `npm run test:desktop` on the hosted runners.
 */

const TEST_HOOKS = { ROSTERDESK_TEST_HOOKS: '1' }
let workDir: string
let launched: LaunchedApp | undefined

/** Crashpad's report files anywhere under crashDumps (new/, pending/, completed/, reports/). */
async function dumpsIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true }).catch(() => [] as string[])
  return entries.filter((entry) => entry.endsWith('.dmp'))
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'rosterdesk-desktop-crash-'))
})

afterAll(async () => {
  await launched?.app.close()
  if (workDir) await rm(workDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 500 })
})

describe('a crash of the packaged app’s window', () => {
  it('leaves a dump in crashDumps, and the next start logs its summary and tells the clerk once', async () => {
    launched = await launchPackaged(workDir, [], TEST_HOOKS)
    const { app, page } = launched
    await page.getByRole('banner').getByText('Not signed in').waitFor()
    const crashDumps = await app.evaluate(({ app: electronApp }) => {
      const store = globalThis as typeof globalThis & { rosterdeskGone?: unknown[] }
      store.rosterdeskGone = []
      electronApp.on('render-process-gone', (_event, _contents, details) =>
        store.rosterdeskGone?.push(details),
      )
      return electronApp.getPath('crashDumps')
    })
    expect(await dumpsIn(crashDumps)).toEqual([])

    // The page dies with its evaluate: its promise never settles as a value.
    void page
      .evaluate(() =>
        (
          globalThis as typeof globalThis & { rosterdeskTestHooks: RosterDeskTestHooks }
        ).rosterdeskTestHooks.crashRenderer(),
      )
      .catch(() => undefined)
    const gone = async (): Promise<unknown[]> =>
      app.evaluate(
        () => (globalThis as typeof globalThis & { rosterdeskGone?: unknown[] }).rosterdeskGone ?? [],
      )
    await expect.poll(gone, { timeout: 30_000 }).toEqual([expect.objectContaining({ reason: 'crashed' })])
    await expect.poll(() => dumpsIn(crashDumps), { timeout: 60_000 }).toHaveLength(1)
    const [dump] = await dumpsIn(crashDumps)
    await app.close()
    launched = undefined

    // The next start: one summary line naming the dump, and the clerk's notice.
    launched = await launchPackaged(workDir, [], TEST_HOOKS)
    await launched.page
      .getByRole('region', { name: 'RosterDesk closed unexpectedly' })
      .getByText(/^RosterDesk closed unexpectedly on \w+day at .+\. Your saved employees are safe\./)
      .waitFor()
    const log = await readFile(join(logsFolder(join(workDir, 'data')), 'main.log'), 'utf8')
    const lines = log.split('\n').filter((line) => line.includes('Crash: '))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('Crash: the window (renderer process) went at ')
    expect(lines[0]).toContain('reason: crashed')
    expect(lines[0]).toContain(`dump ${dump!.split(/[\\/]/).at(-1)}`)
    await launched.app.close()
    launched = undefined

    // The start after: told once only.
    launched = await launchPackaged(workDir, [], TEST_HOOKS)
    await launched.page.getByRole('banner').getByText('Not signed in').waitFor()
    expect(await launched.page.getByRole('region', { name: 'RosterDesk closed unexpectedly' }).count()).toBe(
      0,
    )
  })
})
