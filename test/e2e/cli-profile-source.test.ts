import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryKeyValueBackend, SettingsStore } from '../../src/main/core/settings/settings-store'
import { startCliProcess } from '../helpers/cli-process'
import { makeTempDir } from '../helpers/cache-test-helpers'
import { writeSettingsFile } from '../helpers/settings-file'

/**
 * Decision 039 for the CLI, which cannot ask: `--profile` with a flag naming another source than the profile's is
 * refused (exit 2) with a message naming the profile's source and the two ways out, and nothing is written.
 */
describe('CLI: --profile with flags naming another source', () => {
  let dir: string
  let cleanup: () => void
  const stagingUrl = 'https://staging.payroll.example.com'

  beforeAll(() => {
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-cli-source-'))
    // The app's settings file: a client company on Staging, tenant acme.
    const backend = new MemoryKeyValueBackend()
    const settings = new SettingsStore(backend)
    const acme = settings.profiles.create('Acme Ltd')
    settings.profiles.setActive(acme.id)
    expect(
      settings.update({
        environment: 'staging',
        baseUrls: { staging: stagingUrl },
        clientId: 'acme-client',
        redirectUri: 'http://127.0.0.1:8765/callback',
        tenantId: 'acme',
      }).ok,
    ).toBe(true)
    writeSettingsFile(dir, backend)
  })
  afterAll(() => cleanup())

  const run = (args: readonly string[]) =>
    startCliProcess(args, { ROSTERDESK_ACCESS_TOKEN: 'not-used', ROSTERDESK_USER_DATA_DIR: dir }).done

  it('refuses sync with another --base-url or --tenant, naming the profile’s source and the ways out', async () => {
    for (const flags of [
      ['--base-url', 'https://production.payroll.example.com'],
      ['--tenant', 'globex'],
    ]) {
      const result = await run(['sync', '--profile', 'Acme Ltd', ...flags])
      expect(result.code, result.stderr).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr).toContain(
        `"Acme Ltd" reads Staging at ${stagingUrl} (tenant acme); ${flags[0]} names another source`,
      )
      expect(result.stderr).toContain('give --db FILE (without --profile) for a separate cache')
      expect(result.stderr).toContain('create a new profile for that source in the app')
    }
    expect(existsSync(join(dir, 'profiles'))).toBe(false)
  })

  it('refuses an export whose About sheet would name another environment or tenant', async () => {
    const out = join(dir, 'out.xlsx')
    const result = await run(['export', '--profile', 'Acme Ltd', '--environment', 'Production', '--out', out])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toContain('--environment names another source')
    expect(existsSync(out)).toBe(false)
  })
})
