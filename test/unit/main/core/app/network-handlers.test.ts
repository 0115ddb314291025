import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { systemClock } from '../../../../../src/main/core/clock'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { buildSettingsView } from '../../../../../src/main/core/settings/settings-view'
import { createNetworkHandlers, type AppNetwork } from '../../../../../src/main/core/app/network-handlers'
import type { AuthService } from '../../../../../src/main/core/auth/auth-service'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../../src/main/core/settings/settings-store'
import type { SyncService } from '../../../../../src/main/core/sync/sync-service'

/** The core's network:* handlers, with the runtime's network given as main would give it. */

const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-network-handlers-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function handlers(chosen: string | undefined) {
  const settings = new SettingsStore(new MemoryKeyValueBackend())
  const forgotten: string[] = []
  const network: AppNetwork = {
    probes: { runtime: 'app', proxy: async () => ({ kind: 'direct', source: 'test' }) },
    rememberedProxies: async () => ['proxy.corp.example:8080'],
    forgetProxy: async (proxy) => void forgotten.push(proxy),
    chooseCertificatesFile: async () => chosen,
  }
  const created = createNetworkHandlers({
    settings,
    sync: { isRunning: false } as SyncService,
    auth: { getState: () => ({ status: 'signed-out' }) } as unknown as AuthService,
    fetch: () => Promise.reject(new Error('no network in this test')),
    clock: systemClock,
    demoEnvironment: {
      baseUrl: 'http://127.0.0.1:9',
      clientId: 'demo',
      clientSecret: 'demo-secret',
      redirectUri: 'http://127.0.0.1/oauth/callback',
      tenantId: 't',
    },
    profileName: () => 'Demo',
    network,
    settingsView: async () =>
      buildSettingsView(settings.get(), {
        hasClientSecret: false,
        persistent: true,
        rememberedProxies: await network.rememberedProxies(),
      }),
  })
  return { handlers: created, settings, forgotten, network }
}

describe('network handlers', () => {
  it('never answer a proxy sign-in: that answer is main’s alone', async () => {
    const { handlers: h } = handlers(undefined)
    await expect(h['network:answer-proxy-sign-in']('id', null)).rejects.toMatchObject({ code: 'internal' })
  })

  it('keep the file main chose and checked as the profile’s extra certificates; a refusal or a cancel changes nothing', async () => {
    const chosen = handlers(join(dir, 'company-root.pem'))
    const view = await chosen.handlers['network:choose-certificates']()
    expect(chosen.settings.get().extraCertificatesFile).toBe(join(dir, 'company-root.pem'))
    expect(view.settings.extraCertificatesFile).toBe('company-root.pem')

    const refused = handlers(undefined)
    const refusal = new RosterDeskError('validation', 'The file holds no certificate in PEM form.')
    refused.network.chooseCertificatesFile = () => Promise.reject(refusal)
    await expect(refused.handlers['network:choose-certificates']()).rejects.toBe(refusal)
    expect(refused.settings.get().extraCertificatesFile).toBe('')

    const cancelled = handlers(undefined)
    expect((await cancelled.handlers['network:choose-certificates']()).settings.extraCertificatesFile).toBe(
      '',
    )
  })

  it('forget a remembered proxy through main, and answer the view', async () => {
    const { handlers: h, forgotten } = handlers(undefined)
    const view = await h['network:forget-proxy-password']('proxy.corp.example:8080')
    expect(forgotten).toEqual(['proxy.corp.example:8080'])
    expect(view.rememberedProxies).toEqual(['proxy.corp.example:8080'])
  })
})
