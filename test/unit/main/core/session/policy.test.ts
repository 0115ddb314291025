import { describe, expect, it } from 'vitest'
import type { ProfileList } from '../../../../../src/shared/domain/profiles'
import type { SettingsView } from '../../../../../src/shared/domain/settings'
import { POLICY_LOCKED_LABEL, POLICY_PROBLEM_PREFIX } from '../../../../../src/shared/policy-view'
import type { PolicyInForce } from '../../../../../src/main/core/policy/policy-in-force'
import { policySchema } from '../../../../../src/main/core/policy/policy-schema'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { DEFAULT_SETTINGS } from '../../../../../src/main/core/settings/settings-defaults'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'
import type { SandboxHandle } from '../../../../../src/main/sandbox'
import { sandbox, startApp, tempDir } from '../../../../helpers/app-core-under-test'

const SOURCE = '/etc/rosterdesk/policy.json'

/** A policy as loadMachinePolicy returns it, parsed by the real schema. */
function policyOf(raw: unknown): PolicyInForce {
  return { policy: policySchema.parse(raw), source: SOURCE, problem: undefined }
}

/** A Staging profile for `staging`, its address, client and tenant locked, its secret given; scopes only a start. */
function payrollPolicy(staging: SandboxHandle, network?: Record<string, string>): PolicyInForce {
  return policyOf({
    profiles: [
      {
        name: 'Payroll',
        environment: 'staging',
        baseUrl: staging.baseUrl,
        clientId: staging.credentials.clientId,
        clientSecret: staging.credentials.clientSecret,
        redirectUri: staging.credentials.redirectUri,
        tenantId: staging.credentials.tenantId,
        scopes: 'read',
        locked: ['environment', 'baseUrl', 'clientId', 'tenantId'],
      },
    ],
    ...(network === undefined ? {} : { network }),
  })
}

async function payrollId(app: { invoke(channel: string): Promise<unknown> }): Promise<string> {
  const list = (await app.invoke('profiles:list')) as ProfileList
  return list.profiles.find((p) => p.name === 'Payroll')!.id
}

describe('the machine policy in the app core', () => {
  it('creates its profile at start, marked as managed, with the policy over the defaults', async () => {
    const demo = await sandbox({ size: 5, seed: 1 })
    const staging = await sandbox({ size: 5, seed: 2 })
    const app = await startApp(demo, tempDir(), new MemoryKeyValueBackend(), new MemorySecretStore(), {
      policy: payrollPolicy(staging),
    })
    const list = (await app.invoke('profiles:list')) as ProfileList
    expect(list.profiles.map((p) => [p.name, p.managedByPolicy ?? false])).toEqual([
      ['Demo', false],
      ['Payroll', true],
    ])
    await app.invoke('profiles:switch', await payrollId(app))
    const view = (await app.invoke('settings:get')) as SettingsView
    expect(view.settings).toEqual({
      ...DEFAULT_SETTINGS,
      environment: 'staging',
      baseUrls: { staging: staging.baseUrl.replace(/\/$/, ''), production: '' },
      clientId: staging.credentials.clientId,
      redirectUri: staging.credentials.redirectUri,
      tenantId: staging.credentials.tenantId,
      scopes: 'read',
    })
    expect(view.policy).toEqual({
      source: SOURCE,
      // The secret the policy supplies is locked too (the form shows it set by the organisation), never sent.
      lockedFields: ['environment', 'baseUrls.staging', 'clientId', 'tenantId', 'clientSecret'],
      managedProfile: true,
      problem: undefined,
      exports: { csvAllowed: true },
      notices: [],
    })
    // A field the policy gives unlocked is only a starting value: the clerk's change is kept (user over policy).
    await app.invoke('settings:update', { scopes: 'read write' })
    expect(((await app.invoke('settings:get')) as SettingsView).settings.scopes).toBe('read write')
  })

  it('refuses a change to a locked value through IPC, naming the organisation, and changes nothing', async () => {
    const demo = await sandbox({ size: 5, seed: 1 })
    const staging = await sandbox({ size: 5, seed: 2 })
    const backend = new MemoryKeyValueBackend()
    const app = await startApp(demo, tempDir(), backend, new MemorySecretStore(), {
      policy: payrollPolicy(staging),
    })
    await app.invoke('profiles:switch', await payrollId(app))
    const before = JSON.stringify(backend.get('profiles'))
    await expect(
      app.invoke('settings:update', { baseUrls: { staging: 'https://elsewhere.example' }, clientId: 'mine' }),
    ).rejects.toMatchObject({
      ipc: {
        code: 'validation',
        fieldErrors: {
          'baseUrls.staging': expect.stringContaining(`${POLICY_LOCKED_LABEL} (machine policy ${SOURCE})`),
          clientId: expect.stringContaining(POLICY_LOCKED_LABEL),
        },
      },
    })
    await expect(app.invoke('settings:update', { environment: 'production' })).rejects.toMatchObject({
      ipc: { fieldErrors: { environment: expect.stringContaining(POLICY_LOCKED_LABEL) } },
    })
    expect(JSON.stringify(backend.get('profiles'))).toBe(before)
    // The same value again, with an unlocked change, is no change to a locked field.
    await app.invoke('settings:update', { clientId: staging.credentials.clientId, pageSize: 100 })
    expect(((await app.invoke('settings:get')) as SettingsView).settings.pageSize).toBe(100)
  })

  it('applies the locked values on every read, though settings.json was edited behind the app’s back', async () => {
    const demo = await sandbox({ size: 5, seed: 1 })
    const staging = await sandbox({ size: 5, seed: 2 })
    const backend = new MemoryKeyValueBackend()
    const dataDir = tempDir()
    const first = await startApp(demo, dataDir, backend, new MemorySecretStore(), {
      policy: payrollPolicy(staging),
    })
    const id = await payrollId(first)
    await first.close()
    // The clerk edits the file: another address, client and tenant for the policy's profile.
    const stored = backend.get('profiles') as {
      profiles: Array<{ id: string; settings: Record<string, unknown> }>
    }
    const edited = stored.profiles.find((p) => p.id === id)!
    edited.settings = {
      ...edited.settings,
      baseUrls: { staging: 'https://evil.example', production: '' },
      clientId: 'hacked',
      tenantId: 'other',
      environment: 'production',
    }
    backend.set('profiles', stored)

    const app = await startApp(demo, dataDir, backend, new MemorySecretStore(), {
      policy: payrollPolicy(staging),
    })
    await app.invoke('profiles:switch', id)
    const view = (await app.invoke('settings:get')) as SettingsView
    expect(view.settings).toMatchObject({
      environment: 'staging',
      baseUrls: { staging: staging.baseUrl.replace(/\/$/, '') },
      clientId: staging.credentials.clientId,
      tenantId: staging.credentials.tenantId,
    })
    const list = (await app.invoke('profiles:list')) as ProfileList
    expect(list.profiles.find((p) => p.id === id)).toMatchObject({
      environment: 'staging',
      tenantId: staging.credentials.tenantId,
    })
  })

  it('locks the environment with a locked base URL, so the secret cannot be taken to another address', async () => {
    const demo = await sandbox({ size: 5, seed: 1 })
    const staging = await sandbox({ size: 5, seed: 2 })
    // Only the (production) address is locked: the environment is locked with it.
    const policy = policyOf({
      profiles: [
        {
          name: 'Payroll',
          environment: 'production',
          baseUrl: staging.baseUrl,
          clientId: staging.credentials.clientId,
          clientSecret: staging.credentials.clientSecret,
          locked: ['baseUrl'],
        },
      ],
    })
    const backend = new MemoryKeyValueBackend()
    const dataDir = tempDir()
    const first = await startApp(demo, dataDir, backend, new MemorySecretStore(), { policy })
    const id = await payrollId(first)
    await first.invoke('profiles:switch', id)
    await expect(
      first.invoke('settings:update', {
        environment: 'staging',
        baseUrls: { staging: 'https://evil.example', production: staging.baseUrl },
      }),
    ).rejects.toMatchObject({
      ipc: { code: 'validation', fieldErrors: { environment: expect.stringContaining(POLICY_LOCKED_LABEL) } },
    })
    const view = (await first.invoke('settings:get')) as SettingsView
    expect(view.policy?.lockedFields).toEqual(['baseUrls.production', 'environment', 'clientSecret'])
    await first.close()
    // A hand-edited settings.json that switches the environment is overridden on read, and the secret stays home.
    const stored = backend.get('profiles') as {
      profiles: Array<{ id: string; settings: Record<string, unknown> }>
    }
    const edited = stored.profiles.find((p) => p.id === id)!
    edited.settings = {
      ...edited.settings,
      environment: 'staging',
      baseUrls: { staging: 'https://evil.example', production: staging.baseUrl },
    }
    backend.set('profiles', stored)
    const app = await startApp(demo, dataDir, backend, new MemorySecretStore(), { policy })
    await app.invoke('profiles:switch', id)
    const after = (await app.invoke('settings:get')) as SettingsView
    expect(after.settings.environment).toBe('production')
    expect(after.hasClientSecret).toBe(true)
  })

  it('answers the policy’s client secret only while the profile’s address is the policy’s', async () => {
    const demo = await sandbox({ size: 5, seed: 1 })
    const staging = await sandbox({ size: 5, seed: 2 })
    const secrets = new MemorySecretStore()
    // The address is only a starting value here: a clerk may move it, and the secret must not follow.
    const policy = policyOf({
      profiles: [
        {
          name: 'Payroll',
          environment: 'staging',
          baseUrl: staging.baseUrl,
          clientId: staging.credentials.clientId,
          clientSecret: staging.credentials.clientSecret,
        },
      ],
    })
    const app = await startApp(demo, tempDir(), new MemoryKeyValueBackend(), secrets, { policy })
    const id = await payrollId(app)
    await app.invoke('profiles:switch', id)
    expect(((await app.invoke('settings:get')) as SettingsView).hasClientSecret).toBe(true)
    await app.invoke('settings:update', {
      baseUrls: { staging: 'https://elsewhere.example', production: '' },
    })
    const moved = (await app.invoke('settings:get')) as SettingsView
    expect(moved.hasClientSecret).toBe(false)
    expect(await secrets.get(`profile:${id}:clientSecret`)).toBeUndefined()
    // Moved elsewhere, the secret field is the clerk's again: not shown as the organisation's, and theirs is kept.
    expect(moved.policy.lockedFields).not.toContain('clientSecret')
    await app.invoke('settings:set-client-secret', 'the other service’s own')
    expect(await secrets.get(`profile:${id}:clientSecret`)).toBe('the other service’s own')
    await app.invoke('settings:update', { baseUrls: { staging: staging.baseUrl, production: '' } })
    const back = (await app.invoke('settings:get')) as SettingsView
    expect(back.hasClientSecret).toBe(true)
    expect(back.policy.lockedFields).toContain('clientSecret')
  })

  it('refuses renaming or deleting the policy’s profile', async () => {
    const demo = await sandbox({ size: 5, seed: 1 })
    const staging = await sandbox({ size: 5, seed: 2 })
    const app = await startApp(demo, tempDir(), new MemoryKeyValueBackend(), new MemorySecretStore(), {
      policy: payrollPolicy(staging),
    })
    const id = await payrollId(app)
    await expect(app.invoke('profiles:rename', id, 'Mine')).rejects.toMatchObject({
      ipc: {
        code: 'validation',
        message: `"Payroll" is set by your organisation (machine policy ${SOURCE}) and cannot be renamed.`,
      },
    })
    await expect(app.invoke('profiles:delete', id)).rejects.toMatchObject({
      ipc: { message: expect.stringContaining('cannot be deleted') },
    })
    expect(((await app.invoke('profiles:list')) as ProfileList).profiles.map((p) => p.name)).toEqual([
      'Demo',
      'Payroll',
    ])
    // Another profile stays the clerk's own.
    const created = (await app.invoke('profiles:create', 'Mine')) as ProfileList
    const mine = created.profiles.find((p) => p.name === 'Mine')!
    await app.invoke('profiles:rename', mine.id, 'Still mine')
    await app.invoke('profiles:delete', mine.id)
  })

  it('puts its network on every profile, shown as locked, whatever each profile says', async () => {
    const demo = await sandbox({ size: 5, seed: 1 })
    const staging = await sandbox({ size: 5, seed: 2 })
    const app = await startApp(demo, tempDir(), new MemoryKeyValueBackend(), new MemorySecretStore(), {
      policy: payrollPolicy(staging, { proxyMode: 'fixed', proxyUrl: 'http://proxy.acme.example:8080' }),
    })
    // The Demo profile, not the policy's (on which a first start opens): the network is still the policy's, and
    // the form cannot change it.
    await app.invoke('profiles:switch', 'p1')
    const view = (await app.invoke('settings:get')) as SettingsView
    expect(view.settings).toMatchObject({ proxyMode: 'fixed', proxyUrl: 'http://proxy.acme.example:8080' })
    expect(view.policy).toMatchObject({ lockedFields: ['proxyMode', 'proxyUrl'], managedProfile: false })
    await expect(app.invoke('settings:update', { proxyMode: 'none' })).rejects.toMatchObject({
      ipc: { fieldErrors: { proxyMode: expect.stringContaining(POLICY_LOCKED_LABEL) } },
    })
    await app.invoke('settings:update', { proxyBypass: 'intranet.acme.example' })
    expect(((await app.invoke('settings:get')) as SettingsView).settings.proxyBypass).toBe(
      'intranet.acme.example',
    )
  })

  it('signs in with the policy’s client secret, never shows, stores or logs it, and refuses another', async () => {
    const demo = await sandbox({ size: 5, seed: 1 })
    const staging = await sandbox({ size: 5, seed: 2 })
    const secrets = new MemorySecretStore()
    const log: string[] = []
    const app = await startApp(demo, tempDir(), new MemoryKeyValueBackend(), secrets, {
      policy: payrollPolicy(staging),
      log,
    })
    const id = await payrollId(app)
    await app.invoke('profiles:switch', id)
    const view = (await app.invoke('settings:get')) as SettingsView
    expect(view.hasClientSecret).toBe(true)
    // The sandbox accepts the code only with the right secret: the policy's was sent.
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    await expect(app.invoke('settings:set-client-secret', 'another')).rejects.toMatchObject({
      ipc: { code: 'validation', message: expect.stringContaining('set by your organisation') },
    })
    expect(await secrets.get(`profile:${id}:clientSecret`)).toBeUndefined()
    const secret = staging.credentials.clientSecret
    expect(JSON.stringify(view)).not.toContain(secret)
    expect(JSON.stringify(await app.invoke('profiles:list'))).not.toContain(secret)
    expect(log.length).toBeGreaterThan(0)
    expect(log.join('\n')).not.toContain(secret)
  })

  it('shows a policy that could not be read, with nothing of it applied', async () => {
    const demo = await sandbox({ size: 5, seed: 1 })
    const message = `${POLICY_PROBLEM_PREFIX} ${SOURCE}: netwrok is not a key.`
    const app = await startApp(demo, tempDir(), new MemoryKeyValueBackend(), new MemorySecretStore(), {
      policy: { policy: undefined, source: undefined, problem: { message, detail: 'test' } },
    })
    const view = (await app.invoke('settings:get')) as SettingsView
    expect(view.policy).toEqual({
      source: undefined,
      lockedFields: [],
      managedProfile: false,
      problem: message,
      exports: { csvAllowed: true },
      notices: [],
    })
    expect(((await app.invoke('profiles:list')) as ProfileList).profiles.map((p) => p.name)).toEqual(['Demo'])
  })
})
