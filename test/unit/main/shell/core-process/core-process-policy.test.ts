import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SettingsView } from '../../../../../src/shared/domain/settings'
import { createLogger } from '../../../../../src/main/core/log/logger'
import type { NetworkToApply } from '../../../../../src/main/core/settings/network-settings'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { RemoteAppCore, type ShellNetwork } from '../../../../../src/main/shell/core-process/remote-app-core'
import { forkedProcessChannel } from '../../../../../src/main/shell/core-process/core-process-channel'
import { testCoreProcessEntry } from '../../../../helpers/core-worker-bundle'

/**
 * The machine policy where the app reads it: at the start of the core process (a Node fork of its entry, as in
 * remote-app-core.test.ts), from ROSTERDESK_POLICY_FILE only when main says the app is not packaged; its proxy
 * sent to main's session as the precedence's `policy` slot.
 */
const dirs: string[] = []
const cores: RemoteAppCore[] = []
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.close()))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function startCore(
  packaged: boolean,
): Promise<{ core: RemoteAppCore; applied: NetworkToApply[]; file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-core-policy-'))
  dirs.push(dir)
  const file = join(dir, 'policy.json')
  writeFileSync(
    file,
    JSON.stringify({ network: { proxyMode: 'fixed', proxyUrl: 'http://proxy.acme.example:8080' } }),
  )
  const applied: NetworkToApply[] = []
  const network: ShellNetwork = {
    apply: async (settings) => {
      applied.push(settings)
      return {
        proxyMode: settings.proxyMode,
        source: settings.proxyFromPolicy === true ? 'policy' : 'profile',
        extraCertificates: 0,
      }
    },
    resolveProxy: async () => 'DIRECT',
    facts: () => ({}),
    rememberedProxies: async () => [],
    forgetProxy: async () => undefined,
    chooseCertificatesFile: async () => undefined,
  }
  const core = await RemoteAppCore.start({
    channel: forkedProcessChannel(await testCoreProcessEntry(), {
      ...process.env,
      ROSTERDESK_POLICY_FILE: file,
    }),
    config: {
      appInfo: { name: 'RosterDesk', version: '9.9.9', platform: 'linux' },
      dataDir: join(dir, 'data'),
      packaged,
    },
    shell: {
      secrets: new MemorySecretStore(),
      openExternal: async () => undefined,
      chooseExportPath: async () => undefined,
      revealFile: () => undefined,
      network,
    },
    events: { emit: () => undefined },
    logger: createLogger(() => undefined),
  })
  cores.push(core)
  return { core, applied, file }
}

describe('the core process reads the machine policy at start', () => {
  it('from ROSTERDESK_POLICY_FILE when not packaged: in the settings, and its proxy in main’s policy slot', async () => {
    const { core, applied, file } = await startCore(false)
    const view = (await core.invoke('settings:get', [])) as { ok: true; value: SettingsView }
    expect(view.value.policy).toMatchObject({ source: file, lockedFields: ['proxyMode', 'proxyUrl'] })
    expect(view.value.settings).toMatchObject({
      proxyMode: 'fixed',
      proxyUrl: 'http://proxy.acme.example:8080',
    })
    expect(applied[0]).toMatchObject({
      proxyMode: 'fixed',
      proxyUrl: 'http://proxy.acme.example:8080',
      proxyFromPolicy: true,
    })
  })

  it('never from ROSTERDESK_POLICY_FILE when packaged', async () => {
    const { core, applied } = await startCore(true)
    const view = (await core.invoke('settings:get', [])) as { ok: true; value: SettingsView }
    expect(view.value.policy).toMatchObject({ source: undefined, lockedFields: [] })
    expect(view.value.settings.proxyMode).toBe('system')
    expect(applied[0]).not.toHaveProperty('proxyFromPolicy')
  })
})
