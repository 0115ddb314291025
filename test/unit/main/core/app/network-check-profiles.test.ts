import { describe, expect, it } from 'vitest'
import type { ConnectionReport } from '../../../../../src/shared/connection-report-schema'
import type { ProfileList } from '../../../../../src/shared/domain/profiles'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'
import type { SandboxHandle } from '../../../../../src/main/sandbox/index'
import { policySchema } from '../../../../../src/main/core/policy/policy-schema'
import { sandbox, startApp, syncNow, tempDir, type App } from '../../../../helpers/app-core-under-test'

/** Signs profile `id` in on `service` (Staging), as the clerk does in Settings, and syncs it. */
async function setUpProfile(app: App, id: string, service: SandboxHandle): Promise<void> {
  await app.invoke('profiles:switch', id)
  await app.invoke('settings:update', {
    environment: 'staging',
    baseUrls: { staging: service.baseUrl },
    clientId: service.credentials.clientId,
    redirectUri: service.credentials.redirectUri,
    tenantId: service.credentials.tenantId,
  })
  await app.invoke('settings:set-client-secret', service.credentials.clientSecret)
  expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in', environment: 'staging' })
  expect(await syncNow(app)).toMatchObject({ status: 'complete' })
}

/** Test connection on the active profile: every step passed, the list step too, against `baseUrl`. */
async function expectCheckPasses(app: App, profile: string, baseUrl: string): Promise<void> {
  const report = (await app.invoke('network:check')) as ConnectionReport
  const failed = report.steps.filter((step) => step.state === 'failed')
  expect(failed.map((step) => `${step.id}: ${step.message}`)).toEqual([])
  expect(report).toMatchObject({ ok: true, profile, baseUrl: baseUrl.replace(/\/+$/, '') })
  expect(report.steps.find((step) => step.id === 'list')?.state).toBe('ok')
}

describe('Test connection on each profile (issue 33, point 1)', () => {
  it('checks the active profile’s address, sign-in and settings, on a second and a third profile and after a switch back', async () => {
    const demo = await sandbox({ size: 30, seed: 2 })
    const staging = await sandbox({ size: 40, seed: 11 })
    const third = await sandbox({ size: 25, seed: 5 })
    const app = await startApp(demo, tempDir(), new MemoryKeyValueBackend(), new MemorySecretStore())
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    await expectCheckPasses(app, 'Demo', demo.baseUrl)

    await app.invoke('profiles:create', 'Acme Staging')
    const second = ((await app.invoke('profiles:list')) as ProfileList).profiles[1]!.id
    await setUpProfile(app, second, staging)
    await expectCheckPasses(app, 'Acme Staging', staging.baseUrl)

    await app.invoke('profiles:create', 'Initech')
    const thirdId = ((await app.invoke('profiles:list')) as ProfileList).profiles[2]!.id
    await setUpProfile(app, thirdId, third)
    await expectCheckPasses(app, 'Initech', third.baseUrl)

    await app.invoke('profiles:switch', 'p1')
    await expectCheckPasses(app, 'Demo', demo.baseUrl)
    await app.invoke('profiles:switch', second)
    await expectCheckPasses(app, 'Acme Staging', staging.baseUrl)
  })

  it('checks a profile the machine policy defines, whose address and client ID come from the policy', async () => {
    const demo = await sandbox({ size: 30, seed: 2 })
    const acme = await sandbox({ size: 20, seed: 9 })
    const { clientId, redirectUri, tenantId, clientSecret } = acme.credentials
    const policy = {
      policy: policySchema.parse({
        profiles: [
          {
            name: 'Acme Ltd',
            environment: 'staging',
            baseUrl: acme.baseUrl,
            clientId,
            redirectUri,
            tenantId,
          },
        ],
      }),
      source: '/etc/rosterdesk/policy.json',
      problem: undefined,
    }
    const app = await startApp(demo, tempDir(), new MemoryKeyValueBackend(), new MemorySecretStore(), {
      policy,
    })
    // A first start opens on the policy's first profile (issue 33, point 11); Demo is signed in first.
    const list = (await app.invoke('profiles:list')) as ProfileList
    const demoId = list.profiles.find((profile) => profile.name === 'Demo')!.id
    await app.invoke('profiles:switch', demoId)
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    const acmeId = list.profiles.find((profile) => profile.name === 'Acme Ltd')!.id
    await app.invoke('profiles:switch', acmeId)
    await app.invoke('settings:set-client-secret', clientSecret)
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in', environment: 'staging' })
    await expectCheckPasses(app, 'Acme Ltd', acme.baseUrl)
    await app.invoke('profiles:switch', demoId)
    await expectCheckPasses(app, 'Demo', demo.baseUrl)
  })
})
