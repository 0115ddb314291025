import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../../../../../src/main/core/settings/settings-defaults'
import { FIRST_PROFILE_ID, ProfileStore } from '../../../../../src/main/core/settings/profile-store'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'
import { PolicyRules } from '../../../../../src/main/core/policy/policy-rules'
import type { MachinePolicy } from '../../../../../src/main/core/policy/policy-schema'

/** A machine policy's rules, as read from the machine's file. */
function rules(policy: MachinePolicy): PolicyRules {
  return new PolicyRules({ policy, source: '/etc/rosterdesk/policy.json', problem: undefined })
}

describe('ProfileStore', () => {
  it('starts a first run with one Demo profile, active, written as layout 2', () => {
    const backend = new MemoryKeyValueBackend()
    const store = new ProfileStore(backend)
    expect(store.activeId).toBe(FIRST_PROFILE_ID)
    expect(store.list()).toEqual([{ id: 'p1', name: 'Demo', settings: DEFAULT_SETTINGS }])
    expect(backend.get('settingsVersion')).toBe(2)
    expect(backend.get('settings')).toBeUndefined()
  })

  it('starts a first run on the machine policy’s first profile when the policy defines profiles (issue 33)', () => {
    const backend = new MemoryKeyValueBackend()
    const policy = rules({
      profiles: [
        { name: 'Acme Ltd', environment: 'production', baseUrl: 'https://payroll.acme.example' },
        { name: 'Beta GmbH', environment: 'staging' },
      ],
    })
    const store = new ProfileStore(backend, policy)
    expect(store.list().map((profile) => profile.name)).toEqual(['Demo', 'Acme Ltd', 'Beta GmbH'])
    const acme = store.list().find((profile) => profile.name === 'Acme Ltd')!
    expect(store.activeId).toBe(acme.id)
    expect(store.activeSettings()).toMatchObject({
      environment: 'production',
      baseUrls: { production: 'https://payroll.acme.example' },
    })
    expect(store.loaded.settings).toEqual(store.activeSettings())
    // Written: the next start opens where this one did, and a clerk's own switch afterwards is kept.
    expect(new ProfileStore(backend, policy).activeId).toBe(acme.id)
    store.setActive(FIRST_PROFILE_ID)
    expect(new ProfileStore(backend, policy).activeId).toBe(FIRST_PROFILE_ID)
  })

  it('keeps the active profile of an earlier start, or of the release before profiles, when a policy arrives', () => {
    const policy = rules({ profiles: [{ name: 'Acme Ltd', environment: 'staging' }] })
    const used = new MemoryKeyValueBackend()
    new ProfileStore(used)
    expect(new ProfileStore(used, policy).activeId).toBe(FIRST_PROFILE_ID)
    const flat = new MemoryKeyValueBackend()
    flat.set('settings', { ...DEFAULT_SETTINGS, environment: 'production' })
    flat.set('settingsVersion', 1)
    expect(new ProfileStore(flat, policy).activeId).toBe(FIRST_PROFILE_ID)
  })

  it('turns the flat settings of the release before profiles into profile 1, named after its environment', () => {
    const backend = new MemoryKeyValueBackend()
    const flat = {
      ...DEFAULT_SETTINGS,
      environment: 'production',
      baseUrls: { staging: '', production: 'https://p.example' },
      clientId: 'c-9',
      tenantId: 't-9',
    }
    backend.set('settings', flat)
    backend.set('settingsVersion', 1)
    const store = new ProfileStore(backend)
    expect(store.list()).toEqual([{ id: 'p1', name: 'Production', settings: flat }])
    expect(store.loaded).toMatchObject({ fromVersion: 1, resetFields: [] })
    // Left in place for a downgrade; the profiles are what this version reads from now on.
    expect(backend.get('settings')).toEqual(flat)
    expect(new ProfileStore(backend).loaded).toMatchObject({ fromVersion: 1, changed: false })
  })

  it('creates, renames and deletes profiles with unique names, never deleting the active one', () => {
    const backend = new MemoryKeyValueBackend()
    const store = new ProfileStore(backend)
    expect(store.create('  Acme   Ltd ')).toMatchObject({
      id: 'p2',
      name: 'Acme Ltd',
      settings: DEFAULT_SETTINGS,
    })
    expect(() => store.create('ACME LTD')).toThrow('A profile named "ACME LTD" exists.')
    expect(() => store.create('   ')).toThrow('Enter a name for the profile.')
    expect(() => store.create('x'.repeat(41))).toThrow("Use at most 40 characters for the profile's name.")
    expect(store.create('Globex').id).toBe('p3')
    // In the environment the clerk chose, with the first-run settings otherwise.
    expect(store.create('Umbrella', 'production').settings).toEqual({
      ...DEFAULT_SETTINGS,
      environment: 'production',
    })
    // Renaming to its own name in another case is not a clash.
    expect(store.rename('p2', 'ACME Ltd').name).toBe('ACME Ltd')
    expect(() => store.rename('p3', 'acme ltd')).toThrow('exists')

    store.setActive('p3')
    expect(() => store.delete('p3')).toThrow('Switch to another profile before deleting this one.')
    store.delete('p2')
    expect(() => store.get('p2')).toThrow('That profile no longer exists.')
    // Ids are never reused, so a new profile can never inherit a deleted one's cache folder or secrets.
    expect(store.create('Initech').id).toBe('p5')

    const reopened = new ProfileStore(backend)
    expect(reopened.activeId).toBe('p3')
    expect(reopened.list().map((p) => `${p.id} ${p.name}`)).toEqual([
      'p1 Demo',
      'p3 Globex',
      'p4 Umbrella',
      'p5 Initech',
    ])
  })

  it('never gives a deleted profile’s id again, even the highest one, across restarts', () => {
    const backend = new MemoryKeyValueBackend()
    const store = new ProfileStore(backend)
    const acme = store.create('Acme')
    const globex = store.create('Globex')
    expect([acme.id, globex.id]).toEqual(['p2', 'p3'])
    // The highest id goes: the list alone would hand out p3 again, to meet p3's leftover secrets, cache and views.
    store.delete(globex.id)
    expect(store.create('Initech').id).toBe('p4')
    store.delete('p4')
    expect(new ProfileStore(backend).create('Umbrella').id).toBe('p5')
  })

  it('starts past every listed id when the file has no counter (written before it), or a bad one', () => {
    for (const nextNumber of [undefined, 2, -1, 1.5, 'p9', 1e12]) {
      const backend = new MemoryKeyValueBackend()
      backend.set('settingsVersion', 2)
      backend.set('profiles', {
        activeId: 'p1',
        profiles: [
          { id: 'p1', name: 'Demo', settings: DEFAULT_SETTINGS },
          { id: 'p7', name: 'Acme', settings: DEFAULT_SETTINGS },
        ],
        ...(nextNumber === undefined ? {} : { nextNumber }),
      })
      expect(new ProfileStore(backend).create('Globex').id, String(nextNumber)).toBe('p8')
    }
    const backend = new MemoryKeyValueBackend()
    backend.set('settingsVersion', 2)
    backend.set('profiles', {
      activeId: 'p1',
      profiles: [{ id: 'p1', name: 'Demo', settings: DEFAULT_SETTINGS }],
      nextNumber: 12,
    })
    expect(new ProfileStore(backend).create('Globex').id).toBe('p12')
  })

  it('saves one profile’s settings without touching another’s', () => {
    const store = new ProfileStore(new MemoryKeyValueBackend())
    const acme = store.create('Acme')
    store.saveSettings(acme.id, { ...DEFAULT_SETTINGS, tenantId: 'acme' })
    expect(store.get(acme.id).settings.tenantId).toBe('acme')
    expect(store.get('p1').settings.tenantId).toBe('')
  })

  it('loads a damaged list as far as it can: bad entries skipped, bad fields reset, a lost active id replaced', () => {
    const backend = new MemoryKeyValueBackend()
    backend.set('settingsVersion', 2)
    backend.set('profiles', {
      activeId: 'p9',
      profiles: [
        { id: 'p1', name: 'Demo', settings: { ...DEFAULT_SETTINGS, pageSize: 'lots' } },
        { id: '../etc', name: 'Sneaky', settings: DEFAULT_SETTINGS },
        { id: 'p2', name: 42, settings: { ...DEFAULT_SETTINGS, tenantId: 'kept' } },
        'nonsense',
      ],
    })
    const store = new ProfileStore(backend)
    expect(store.activeId).toBe('p1')
    expect(store.list()).toEqual([
      { id: 'p1', name: 'Demo', settings: DEFAULT_SETTINGS },
      { id: 'p2', name: 'p2', settings: { ...DEFAULT_SETTINGS, tenantId: 'kept' } },
    ])
  })
})
