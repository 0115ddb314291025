import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { systemClock } from '../../../../../src/main/core/clock'
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
  return { handlers: created, settings, forgotten }
}

describe('network handlers', () => {
  it('never answer a proxy sign-in: that answer is main’s alone', async () => {
    const { handlers: h } = handlers(undefined)
    await expect(h['network:answer-proxy-sign-in']('id', null)).rejects.toMatchObject({ code: 'internal' })
  })

  it('keep a chosen PEM file as the profile’s extra certificates, and refuse a file with none', async () => {
    const notPem = join(dir, 'notes.txt')
    writeFileSync(notPem, 'hello')
    const refused = handlers(notPem)
    await expect(refused.handlers['network:choose-certificates']()).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringMatching(/holds no certificate in PEM form/),
    })
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
