import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { runLoginCommand } from '../../../../src/main/cli/login-command'
import { SYNC_USAGE, runSyncCommand } from '../../../../src/main/cli/sync-command'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../src/main/core/settings/settings-store'
import { PAGE_SIZE_SETTING } from '../../../../src/shared/settings-rules'
import { CaptureLogger } from '../../../helpers/capture-logger'
import { TEST_CACHE_KEY } from '../../../helpers/test-cache-key'

/** Runs a CLI command in-process; every case here is refused before it touches a file or the network. */
async function run(
  command: typeof runSyncCommand | typeof runLoginCommand,
  args: readonly string[],
  env: NodeJS.ProcessEnv = { ROSTERDESK_CLIENT_SECRET: 'x', ROSTERDESK_ACCESS_TOKEN: 'x' },
): Promise<{ code: number; stderr: string }> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let text = ''
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
  const code = await command(args, {
    stdout,
    stderr,
    env,
    platform: 'linux',
    logger: new CaptureLogger(),
    cacheKey: () => TEST_CACHE_KEY,
  })
  return { code, stderr: text }
}

/** The message main's SettingsStore gives for `patch`, on its one refused field. */
function mainSays(patch: Record<string, unknown>): string {
  const result = new SettingsStore(new MemoryKeyValueBackend()).update(patch)
  if (result.ok) throw new Error(`main accepted ${JSON.stringify(patch)}`)
  const messages = Object.values(result.fieldErrors)
  expect(messages).toHaveLength(1)
  return messages[0]!
}

const SERVICE_ARGS = [
  '--base-url',
  'https://payroll.example',
  '--client-id',
  'client-1',
  '--redirect-uri',
  'http://127.0.0.1/callback',
]
const SYNC_ARGS = [...SERVICE_ARGS, '--db', '/nonexistent/cache.db']
const LOGIN_ARGS = [...SERVICE_ARGS, '--token-file', '/nonexistent/tokens.json']

function withFlag(args: readonly string[], flag: string, value: string): string[] {
  const at = args.indexOf(flag)
  return at === -1 ? [...args, flag, value] : args.map((arg, i) => (i === at + 1 ? value : arg))
}

describe('CLI flags that carry a setting', () => {
  it('are refused by sync with the settings schema’s own message, naming the flag (exit 2)', async () => {
    const cases: ReadonlyArray<[flag: string, value: string, patch: Record<string, unknown>]> = [
      ['--page-size', 'lots', { pageSize: 'lots' }],
      ['--page-size', '10001', { pageSize: '10001' }],
      ['--concurrency', '0', { concurrency: '0' }],
      ['--client-id', 'has space', { clientId: 'has space' }],
      ['--redirect-uri', 'https://r.example/cb', { redirectUri: 'https://r.example/cb' }],
      ['--tenant', 'my tenant', { tenantId: 'my tenant' }],
      ['--pay-cycle', 'x'.repeat(101), { trackedPayCycles: ['x'.repeat(101)] }],
      ['--request-timeout', '0', { requestTimeoutSeconds: '0' }],
      ['--request-timeout', '2.5', { requestTimeoutSeconds: '2.5' }],
      ['--run-deadline', '1441', { syncDeadlineMinutes: '1441' }],
      ['--max-employees', 'many', { maxEmployees: 'many' }],
    ]
    for (const [flag, value, patch] of cases) {
      const result = await run(runSyncCommand, withFlag(SYNC_ARGS, flag, value))
      expect(result).toEqual({ code: 2, stderr: `${flag}: ${mainSays(patch)} ${SYNC_USAGE}\n` })
    }
  })

  it('explain --page-size in the words Settings uses for the page size', () => {
    expect(SYNC_USAGE).toContain(`--page-size: ${PAGE_SIZE_SETTING.help}`)
  })

  it('check --base-url by the same address rule as Settings, named as the service', async () => {
    const result = await run(runSyncCommand, withFlag(SYNC_ARGS, '--base-url', 'http://payroll.example'))
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(
      '--base-url: The service address must start with https:// (plain http is allowed only for this computer).',
    )
    expect(mainSays({ baseUrls: { staging: 'http://payroll.example' } })).toBe(
      'The Staging address must start with https:// (plain http is allowed only for this computer).',
    )
  })

  it('are refused by login the same way', async () => {
    expect(await run(runLoginCommand, [...LOGIN_ARGS, '--scope', 'read "all"'])).toEqual({
      code: 2,
      stderr: `--scope: ${mainSays({ scopes: 'read "all"' })}\n`,
    })
    expect(await run(runLoginCommand, [...LOGIN_ARGS, '--tenant', 'ténant'])).toEqual({
      code: 2,
      stderr: `--tenant: ${mainSays({ tenantId: 'ténant' })}\n`,
    })
  })
})

describe('tokens given in the environment', () => {
  it('are refused before any request when a request cannot carry them, naming the variable', async () => {
    for (const [name, token] of [
      ['ROSTERDESK_ACCESS_TOKEN', 'abc\r\nX-Injected: 1'],
      ['ROSTERDESK_REFRESH_TOKEN', 'refresh-é'],
    ] as const) {
      const env = { ROSTERDESK_CLIENT_SECRET: 'x', ROSTERDESK_ACCESS_TOKEN: 'clean-token', [name]: token }
      const { code, stderr } = await run(runSyncCommand, SYNC_ARGS, env)
      expect(code).toBe(1)
      expect(stderr).toContain(
        `Sync failed: ${name} holds characters a request cannot carry (a line break, a control character or one outside visible ASCII). Set it to the token alone.`,
      )
      expect(stderr).not.toContain(token)
    }
  })
})
