import { describe, expect, it } from 'vitest'
import { settingsViewSchema } from '../../../../../src/shared/domain/settings'
import { applySettingsPatch } from '../../../../../src/shared/settings-schema'
import { DEFAULT_SETTINGS } from '../../../../../src/main/core/settings/settings-defaults'
import {
  missingConfiguration,
  resolveEnvironment,
  type DemoEnvironment,
} from '../../../../../src/main/core/settings/resolve-environment'
import { buildSettingsView } from '../../../../../src/main/core/settings/settings-view'
import { PROFILE_STORAGE_KEYS } from '../../../../../src/main/core/settings/profile-store'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../../src/main/core/settings/settings-store'

const DEMO: DemoEnvironment = {
  baseUrl: 'http://127.0.0.1:4100/',
  clientId: 'rosterdesk-demo',
  clientSecret: 'rosterdesk-demo-secret',
  redirectUri: 'com.rosterdesk.app:/oauth/callback',
  tenantId: 'tenant-demo',
}

describe('SettingsStore', () => {
  it('starts from the defaults on first start', () => {
    const backend = new MemoryKeyValueBackend()
    const store = new SettingsStore(backend)
    expect(store.get()).toEqual(DEFAULT_SETTINGS)
    expect(store.loaded).toMatchObject({ fromVersion: 0, resetFields: [] })
    expect(backend.get(PROFILE_STORAGE_KEYS.flat)).toBeUndefined()
  })

  it('saves valid changes, notifies listeners and survives a restart', () => {
    const backend = new MemoryKeyValueBackend()
    const store = new SettingsStore(backend)
    const seen: string[] = []
    const unsubscribe = store.onChange((settings) => seen.push(settings.environment))
    const result = store.update({
      environment: 'staging',
      baseUrls: { staging: 'https://s.example/', production: '' },
    })
    expect(result.ok).toBe(true)
    unsubscribe()
    store.update({ environment: 'production', baseUrls: { production: 'https://p.example' } })
    expect(seen).toEqual(['staging'])
    const reopened = new SettingsStore(backend)
    expect(reopened.get()).toMatchObject({
      environment: 'production',
      baseUrls: { staging: 'https://s.example', production: 'https://p.example' },
    })
    expect(backend.get(PROFILE_STORAGE_KEYS.version)).toBe(2)
  })

  it('saves nothing when any field is invalid', () => {
    const backend = new MemoryKeyValueBackend()
    const store = new SettingsStore(backend)
    const result = store.update({ clientId: 'fine', pageSize: 99_999 })
    expect(result.ok).toBe(false)
    expect(store.get().clientId).toBe('')
    expect(new SettingsStore(backend).get().clientId).toBe('')
  })

  it('answers a change exactly as the shared schema does, so the form (which calls it too) agrees', () => {
    const store = new SettingsStore(new MemoryKeyValueBackend())
    const current = store.get()
    for (const patch of [
      { pageSize: '0', concurrency: 99 },
      { baseUrls: { staging: 'http://payroll.example' }, tenantId: 'my tenant' },
      { environment: 'staging', scopes: ' , ' },
      { redirectUri: 'https://r.example/cb', clientSecret: 'x' },
    ]) {
      const answer = applySettingsPatch(patch, current)
      expect(answer.ok).toBe(false)
      expect(store.update(patch)).toEqual(answer)
    }
    expect(store.get()).toEqual(current)
  })

  it('refuses an environment without its address, yet loads a file saved that way before the rule', () => {
    const backend = new MemoryKeyValueBackend()
    const store = new SettingsStore(backend)
    expect(store.update({ environment: 'production' })).toEqual({
      ok: false,
      fieldErrors: {
        'baseUrls.production': 'Enter the Production address to use the Production environment.',
      },
    })
    // A file the release before profiles saved that way: it loads as it was saved, into the first profile.
    const older = new MemoryKeyValueBackend()
    older.set('settings', { ...DEFAULT_SETTINGS, environment: 'staging', clientId: 'c-1' })
    older.set('settingsVersion', 1)
    const reopened = new SettingsStore(older)
    expect(reopened.get()).toMatchObject({ environment: 'staging', clientId: 'c-1' })
    expect(reopened.loaded).toMatchObject({ fromVersion: 1, resetFields: [] })
    expect(new SettingsStore(older).loaded).toMatchObject({ changed: false, resetFields: [] })
  })

  it('migrates stored v0 data on load and writes it back as the first profile', () => {
    const backend = new MemoryKeyValueBackend()
    backend.set('settings', {
      environment: 'staging',
      stagingBaseUrl: 'https://s.example',
      scope: 'read,write',
    })
    const store = new SettingsStore(backend)
    expect(store.get()).toMatchObject({ baseUrls: { staging: 'https://s.example' }, scopes: 'read write' })
    expect(backend.get('profiles')).toEqual({
      activeId: 'p1',
      profiles: [{ id: 'p1', name: 'Staging', settings: store.get() }],
      nextNumber: 2,
    })
    expect(backend.get('settingsVersion')).toBe(2)
  })

  it('hands out copies, so callers cannot change the stored settings behind its back', () => {
    const store = new SettingsStore(new MemoryKeyValueBackend())
    store.get().trackedPayCycles.push('PC-X')
    expect(store.get().trackedPayCycles).toEqual([])
  })

  it('never persists a secret, even when asked to', () => {
    const backend = new MemoryKeyValueBackend()
    const store = new SettingsStore(backend)
    store.update({ clientSecret: 'do-not-store-me' })
    store.update({ clientId: 'client-1', accessToken: 'tok-123' })
    store.update({ clientId: 'client-2' })
    const persisted = JSON.stringify([...backend.values.entries()])
    expect(persisted).not.toContain('do-not-store-me')
    expect(persisted).not.toContain('tok-123')
    expect(persisted).toContain('client-2')
  })
})

describe('resolveEnvironment', () => {
  it('uses the in-app sandbox and its demo credentials for Demo', () => {
    expect(
      resolveEnvironment({ ...DEFAULT_SETTINGS, clientId: 'ignored', scopes: 'read,write' }, DEMO),
    ).toEqual({
      environment: 'demo',
      baseUrl: 'http://127.0.0.1:4100',
      clientId: 'rosterdesk-demo',
      redirectUri: 'com.rosterdesk.app:/oauth/callback',
      scopes: 'read write',
      tenantId: 'tenant-demo',
      clientSecret: 'rosterdesk-demo-secret',
    })
  })

  it("uses the clerk's address and client for Staging and Production, without any secret", () => {
    const settings = {
      ...DEFAULT_SETTINGS,
      environment: 'production' as const,
      baseUrls: { staging: 'https://s.example', production: 'https://p.example' },
      clientId: 'client-1',
      tenantId: 'tenant-1',
    }
    const resolved = resolveEnvironment(settings, DEMO)
    expect(resolved).toEqual({
      environment: 'production',
      baseUrl: 'https://p.example',
      clientId: 'client-1',
      redirectUri: 'com.rosterdesk.app:/oauth/callback',
      scopes: 'read',
      tenantId: 'tenant-1',
    })
    expect(missingConfiguration(resolved)).toBeUndefined()
  })

  it('says what is missing before a sign-in can start', () => {
    const staging = resolveEnvironment({ ...DEFAULT_SETTINGS, environment: 'staging' }, DEMO)
    expect(missingConfiguration(staging)).toBe(
      'Enter the Staging service address in Settings before signing in.',
    )
    const noClient = resolveEnvironment(
      {
        ...DEFAULT_SETTINGS,
        environment: 'staging',
        baseUrls: { staging: 'https://s.example', production: '' },
      },
      DEMO,
    )
    expect(missingConfiguration(noClient)).toBe('Enter the client ID in Settings before signing in.')
  })
})

describe('buildSettingsView', () => {
  it('tells the renderer whether a secret is stored and how, never the secret', () => {
    const view = buildSettingsView(DEFAULT_SETTINGS, { hasClientSecret: true, persistent: false })
    expect(settingsViewSchema.parse(view)).toEqual({
      settings: DEFAULT_SETTINGS,
      hasClientSecret: true,
      secretStorage: 'memory-only',
      rememberedProxies: [],
      // No machine policy: nothing locked, every export format, nothing to tell.
      policy: { lockedFields: [], managedProfile: false, exports: { csvAllowed: true }, notices: [] },
    })
    // Proxies whose sign-in main remembers are listed by name (host:port); their credentials never reach a view.
    expect(
      buildSettingsView(DEFAULT_SETTINGS, {
        hasClientSecret: false,
        persistent: true,
        rememberedProxies: ['proxy.corp.example:8080'],
      }).rememberedProxies,
    ).toEqual(['proxy.corp.example:8080'])
    expect(
      buildSettingsView(DEFAULT_SETTINGS, { hasClientSecret: false, persistent: true }).secretStorage,
    ).toBe('os')
  })
})
