import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LARGE_PAGE_REQUEST } from '../../src/main/core/sync/page-size'
import type { SandboxHandle, SandboxOptions } from '../../src/main/sandbox/index'
import { sandboxCliEnv, sandboxServiceArgs, startCliProcess } from '../helpers/cli-process'
import type { CliResult } from '../helpers/cli-process'
import { useSandboxPerTest } from '../helpers/sandbox'
import { fingerprintCache, makeTempDir } from '../helpers/cache-test-helpers'

/**
 * The CLI's sync against two ways a service that works can still look broken (issue 22, faults 4 and 7): the
 * employee list moved to another path and redirected there (followed, within the origin only; a redirect to
 * another origin is refused and that origin sent nothing), and a service that echoes the `limit` asked while
 * serving fewer rows (asked again at --page-size, and from then on at that size directly).
 */

interface Seen {
  readonly method: string
  readonly url: string
  readonly authorization: string | undefined
}

describe('CLI sync: a moved list, and a service that echoes its limit', () => {
  const startSandbox = useSandboxPerTest()
  let dir: string
  let cleanup: () => void
  let other: Server | null = null

  beforeEach(() => {
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-service-faults-'))
  })
  afterEach(async () => {
    const server = other
    other = null
    if (server !== null) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    }
    cleanup()
  })

  async function sync(sandbox: SandboxHandle, extra: readonly string[] = []): Promise<CliResult> {
    const args = ['sync', ...sandboxServiceArgs(sandbox), '--db', join(dir, 'cache.db'), ...extra]
    return startCliProcess(args, sandboxCliEnv(sandbox)).done
  }

  /** The one JSON object a `--json` run prints. */
  function summaryOf(result: CliResult): Record<string, unknown> {
    const lines = result.stdout.split('\n').filter((line) => line !== '')
    expect(lines, `stdout: ${result.stdout} stderr: ${result.stderr}`).toHaveLength(1)
    return JSON.parse(lines[0] ?? '') as Record<string, unknown>
  }

  /** Another origin on 127.0.0.1 (its own port), recording every request it receives. */
  async function startOtherOrigin(): Promise<{ origin: string; seen: Seen[] }> {
    const seen: Seen[] = []
    const server = createServer((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"rows":[]}')
    })
    other = server
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
  }

  async function sandboxOf(options: SandboxOptions): Promise<SandboxHandle> {
    return startSandbox({ seed: 22, ...options })
  }

  it('follows a same-origin 307 and 308 to the list’s moved path, and completes', async () => {
    const sandbox = await sandboxOf({ size: 600, behaviours: { redirectList: { status: 307, to: 'moved' } } })
    for (const status of [307, 308] as const) {
      sandbox.setBehaviours({ redirectList: { status, to: 'moved' } })
      const before = sandbox.stats()
      const result = await sync(sandbox, ['--page-size', '100', '--json'])
      expect(result.code, result.stderr).toBe(0)
      const summary = summaryOf(result)
      expect(summary).toMatchObject({ status: 'complete', totalCount: 600, stored: 600 })
      // Every request the CLI counted was answered by the redirect, then by the moved path.
      const after = sandbox.stats()
      expect(after.listRequests - before.listRequests).toBe(2 * Number(summary['requests']))
      expect(after.faultsInjected - before.faultsInjected).toBe(Number(summary['requests']))
    }
  })

  it('refuses a redirect to another origin by its origin, sends that origin nothing, and keeps the cache', async () => {
    const sandbox = await sandboxOf({ size: 300 })
    const db = join(dir, 'cache.db')
    expect(summaryOf(await sync(sandbox, ['--json']))).toMatchObject({ status: 'complete', stored: 300 })
    const before = fingerprintCache(db)

    const elsewhere = await startOtherOrigin()
    sandbox.setBehaviours({ redirectList: { status: 307, to: elsewhere.origin } })
    const json = await sync(sandbox, ['--json'])
    expect(json.code).toBe(1)
    const summary = summaryOf(json)
    expect(summary).toMatchObject({ status: 'failed' })
    expect(String(summary['error'])).toContain(`The payroll service redirected to ${elsewhere.origin}, `)
    expect(String(summary['error'])).toMatch(/change the service address in Settings \(the CLI: --base-url\)/)

    // The text output: one line, the origin only (never the path or query it was sent to).
    const text = await sync(sandbox)
    expect(text.code).toBe(1)
    expect(text.stderr.trim().split('\n')).toHaveLength(1)
    expect(text.stderr).toMatch(
      new RegExp(`^Sync failed: The payroll service redirected to ${elsewhere.origin}, `),
    )
    expect(text.stderr).not.toMatch(/employees\/list|page=|limit=/)

    // No request reached the other origin, with or without the Bearer token.
    expect(elsewhere.seen).toEqual([])
    const after = fingerprintCache(db)
    expect(after.catalog).toBe(before.catalog)
    expect(after.snapshotPath).toBe(before.snapshotPath)
    expect(after.snapshotBytes).toBe(before.snapshotBytes)
    expect(after.runs.slice(0, before.runs.length)).toEqual(before.runs)
  })

  it('syncs a service that echoes the limit asked while serving fewer rows, then asks at --page-size directly', async () => {
    const sandbox = await sandboxOf({ size: 2_500, behaviours: { maxPageSize: null, echoLimitAbove: 1_000 } })
    const first = await sync(sandbox, ['--page-size', '250', '--json'])
    expect(first.code, first.stderr).toBe(0)
    expect(summaryOf(first)).toMatchObject({
      status: 'complete',
      totalCount: 2_500,
      stored: 2_500,
      pages: 10,
    })
    const afterFirst = sandbox.stats()
    // Page 1 (and its guesses) asked large once; the whole list then at the page size given.
    expect(afterFirst.listLimits[String(LARGE_PAGE_REQUEST)]).toBeGreaterThanOrEqual(1)
    expect(afterFirst.listLimits['250']).toBe(11)

    const second = await sync(sandbox, ['--page-size', '250', '--json'])
    expect(summaryOf(second)).toMatchObject({ status: 'complete', totalCount: 2_500, stored: 2_500 })
    const asked = sandbox.stats().listLimits
    expect(asked[String(LARGE_PAGE_REQUEST)]).toBe(afterFirst.listLimits[String(LARGE_PAGE_REQUEST)])
    expect((asked['250'] ?? 0) - (afterFirst.listLimits['250'] ?? 0)).toBe(11)
    expect(Object.keys(asked).sort()).toEqual(['250', String(LARGE_PAGE_REQUEST)].sort())
  })
})
