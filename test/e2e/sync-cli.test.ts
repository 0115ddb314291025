import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeTokenFile } from '../../src/main/core/auth/token-file'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { sandboxCliEnv, sandboxServiceArgs, startCliProcess } from '../helpers/cli-process'
import type { CliResult } from '../helpers/cli-process'
import { startTestSandbox } from '../helpers/sandbox'
import { fingerprintCache, makeTempDir } from '../helpers/cache-test-helpers'

const SIZE = 900
const MAX_PAGE = 100

/** Runs `npm run cli -- …` the way npm does (tsx), as a separate process. */
function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  whileRunning?: (child: ReturnType<typeof startCliProcess>['child']) => void,
): Promise<CliResult> {
  const { child, done } = startCliProcess(args, env)
  whileRunning?.(child)
  return done
}

/** stdout must be exactly one JSON object (one line). */
function onlyJson(result: CliResult): Record<string, unknown> {
  const lines = result.stdout.split('\n').filter((line) => line !== '')
  expect(lines, `stdout: ${result.stdout} stderr: ${result.stderr}`).toHaveLength(1)
  return JSON.parse(lines[0] ?? '') as Record<string, unknown>
}

describe('CLI: sync, search and status', () => {
  let sandbox: SandboxHandle
  let dir: string
  let cleanup: () => void
  let db: string
  /** Fresh tokens for each run: env tokens are not written back, and a refresh rotates the refresh token. */
  let env: () => Record<string, string>
  let serviceArgs: string[]

  beforeAll(async () => {
    // A service whose largest page is 100: the CLI asks for more and reads the list at the size served.
    sandbox = await startTestSandbox({ size: SIZE, seed: 5, behaviours: { maxPageSize: MAX_PAGE } })
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-cli-'))
    db = join(dir, 'cache.db')
    env = () => sandboxCliEnv(sandbox)
    serviceArgs = sandboxServiceArgs(sandbox)
  })
  afterAll(async () => {
    await sandbox.close()
    cleanup()
  })

  it('syncs into the cache and prints exactly one JSON object', async () => {
    const result = await runCli(
      ['sync', ...serviceArgs, '--db', db, '--page-size', '50', '--pay-cycle', 'PC-MONTHLY', '--json'],
      env(),
    )
    expect(result.code).toBe(0)
    const summary = onlyJson(result)
    // Pages of the 100 served, not of the 50 --page-size would fall back to.
    expect(summary).toMatchObject({ status: 'complete', totalCount: SIZE, stored: SIZE, pages: 9 })
    expect(summary['error']).toBeUndefined()
    expect(Object.keys(summary).sort()).toEqual([
      'durationMs',
      'pages',
      'requests',
      'status',
      'stored',
      'totalCount',
    ])
  })

  it('searches the cache, rows exactly as the service sent them', async () => {
    const target = sandbox.allEmployees()[123] as Record<string, unknown>
    const lastName = String(target['lastName'])
    const result = await runCli([
      'search',
      '--db',
      db,
      '--q',
      lastName.slice(0, 3),
      '--sort',
      'annualSalary',
      '--order',
      'desc',
      '--limit',
      '500',
      '--json',
    ])
    expect(result.code).toBe(0)
    const found = onlyJson(result) as { total: number; rows: Array<Record<string, unknown>> }
    expect(found.total).toBeGreaterThan(0)
    expect(found.rows.find((row) => row['UUID'] === target['UUID'])).toEqual(target)
    const salaries = found.rows.map((row) => Number(row['annualSalary']))
    expect(salaries).toEqual([...salaries].sort((a, b) => b - a))

    const byCycle = onlyJson(
      await runCli([
        'search',
        '--db',
        db,
        '--pay-cycle',
        'PC-MONTHLY',
        '--status',
        'Active',
        '--limit',
        '0',
        '--json',
      ]),
    )
    const expected = sandbox
      .allEmployees()
      .filter((row) => row['payCycleId'] === 'PC-MONTHLY' && row['employeeStatus'] === 'Active').length
    expect(byCycle).toEqual({ total: expected, rows: [] })
  })

  it('reports the cache’s status', async () => {
    const status = onlyJson(await runCli(['status', '--db', db, '--json'])) as Record<
      string,
      Record<string, unknown> | number | null
    >
    expect(status['employeeCount']).toBe(SIZE)
    expect(status['lastRun']).toMatchObject({ status: 'complete', stored: SIZE })
    expect(status['lastComplete']).toMatchObject({ status: 'complete' })
    expect(status['changes']).toMatchObject({ added: SIZE, removed: 0, changed: 0 })
  })

  it('lists every employee behind a count of the change report, a window at a time', async () => {
    const first = onlyJson(
      await runCli(['changes', '--db', db, '--kind', 'added', '--limit', '600', '--json']),
    )
    const rest = onlyJson(
      await runCli(['changes', '--db', db, '--kind', 'added', '--offset', '600', '--json']),
    )
    expect(first).toMatchObject({ kind: 'added', total: SIZE })
    const items = [...(first['items'] as Array<{ UUID: string; name: string }>), ...(rest['items'] as [])]
    expect(items).toHaveLength(SIZE)
    expect(new Set(items.map((item) => item.UUID)).size).toBe(SIZE)
    expect(items.every((item) => item.name.trim() !== '')).toBe(true)
    expect(onlyJson(await runCli(['changes', '--db', db, '--kind', 'removed', '--json']))).toEqual({
      kind: 'removed',
      runId: expect.any(Number),
      total: 0,
      items: [],
    })
    const bad = await runCli(['changes', '--db', db, '--kind', 'everything'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--kind must be one of added, removed, changed/)
  })

  it('refreshes through a token file and writes the renewed tokens back (0600)', async () => {
    const tokenFile = join(dir, 'tokens.json')
    const issued = sandbox.issueTokens()
    await writeTokenFile(tokenFile, {
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.credentials.clientId,
      redirectUri: sandbox.credentials.redirectUri,
      tenantId: '',
      accessToken: issued.accessToken,
      refreshToken: issued.refreshToken,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    })
    sandbox.expireAccessTokens()
    const refreshesBefore = sandbox.stats().refreshes
    const result = await runCli(
      ['sync', ...serviceArgs, '--db', join(dir, 'token-file.db'), '--token-file', tokenFile, '--json'],
      { ROSTERDESK_CLIENT_SECRET: sandbox.credentials.clientSecret },
    )
    expect(onlyJson(result)).toMatchObject({ status: 'complete', stored: SIZE })
    expect(sandbox.stats().refreshes).toBe(refreshesBefore + 1)
    const rewritten = JSON.parse(readFileSync(tokenFile, 'utf8')) as { accessToken: string }
    expect(rewritten.accessToken).not.toBe(issued.accessToken)
    if (process.platform !== 'win32') expect(statSync(tokenFile).mode & 0o777).toBe(0o600)
  })

  it('cancels cleanly on SIGINT: status cancelled, previous cache kept', async () => {
    const before = fingerprintCache(db)
    // Small pages served slowly, so the run is still listing when it is interrupted.
    sandbox.setBehaviours({ latencyMs: 150, maxPageSize: 20 })
    const listBefore = sandbox.stats().listRequests
    try {
      const result = await runCli(
        ['sync', ...serviceArgs, '--db', db, '--page-size', '20', '--concurrency', '2', '--json'],
        env(),
        (child) => {
          const timer = setInterval(() => {
            if (sandbox.stats().listRequests >= listBefore + 3) {
              clearInterval(timer)
              child.kill('SIGINT')
            }
          }, 20)
        },
      )
      expect(result.code).toBe(130)
      expect(onlyJson(result)).toMatchObject({
        status: 'cancelled',
        error: expect.stringMatching(/cancelled/),
      })
    } finally {
      sandbox.setBehaviours({ latencyMs: 0, maxPageSize: MAX_PAGE })
    }
    const after = fingerprintCache(db)
    expect(after.snapshotBytes).toBe(before.snapshotBytes)
    expect(after.catalog).toBe(before.catalog)
  })

  it('fails with status failed and exit 1 when the service refuses the tenant', async () => {
    const result = await runCli(['sync', ...serviceArgs, '--db', db, '--tenant', 'nobody', '--json'], env())
    expect(result.code).toBe(1)
    expect(onlyJson(result)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/tenant “nobody” \(HTTP 403\)/),
    })
  })

  it('refuses bad arguments, missing or damaged caches and missing tokens with one clear line', async () => {
    const oneLine = (result: CliResult) => {
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
      return result.stderr
    }
    const badSize = await runCli(['sync', ...serviceArgs, '--db', db, '--page-size', 'lots'], env())
    expect(badSize.code).toBe(2)
    expect(oneLine(badSize)).toMatch(/--page-size: Page size must be a whole number from 1 to 10,000\./)

    const missingDb = await runCli(['sync', ...serviceArgs], env())
    expect(missingDb.code).toBe(2)
    expect(oneLine(missingDb)).toMatch(/Missing --db/)

    const nowhere = join(dir, 'nowhere.db')
    const missing = await runCli(['search', '--db', nowhere, '--json'])
    expect(missing.code).toBe(1)
    expect(oneLine(missing)).toMatch(/no employee cache at/)
    expect(existsSync(nowhere)).toBe(false)
    const status = await runCli(['status', '--db', nowhere, '--json'])
    expect(status.code).toBe(1)
    expect(existsSync(nowhere)).toBe(false)

    const junk = join(dir, 'junk.db')
    writeFileSync(junk, 'definitely not SQLite '.repeat(300))
    const damaged = await runCli(['search', '--db', junk, '--json'])
    expect(damaged.code).toBe(1)
    expect(oneLine(damaged)).toMatch(
      /^Search failed: The saved employees could not be unlocked with this computer’s key; a full sync is needed to rebuild them\.\n$/,
    )

    const unknownColumn = await runCli(['search', '--db', db, '--sort', 'shoeSize', '--json'])
    expect(unknownColumn.code).toBe(1)
    expect(oneLine(unknownColumn)).toMatch(/no column called “shoeSize”/)

    const noTokens = await runCli(['sync', ...serviceArgs, '--db', db], { ROSTERDESK_CLIENT_SECRET: 'x' })
    expect(noTokens.code).toBe(1)
    expect(oneLine(noTokens)).toMatch(/No tokens/)
  })
})
