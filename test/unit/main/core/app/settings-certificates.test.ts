import { describe, expect, it } from 'vitest'
import { policySchema } from '../../../../../src/main/core/policy/policy-schema'
import { createSettingsHandlers } from '../../../../../src/main/core/app/settings-handlers'
import { createNetworkHandlers, plainNodeNetwork } from '../../../../../src/main/core/app/network-handlers'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../../src/main/core/settings/settings-store'
import { certificatesFileProblem } from '../../../../../src/shared/settings-rules'
import type { SyncService } from '../../../../../src/main/core/sync/sync-service'
import type { AuthService } from '../../../../../src/main/core/auth/auth-service'
import { systemClock } from '../../../../../src/main/core/clock'

/**
 * Issue 31, point 2: the certificate file is set only through main's own open dialog. No settings change from the
 * window may name one (a path such as \\attacker\share\ca.pem, which main would then read over SMB); "Remove" is a
 * channel of its own; and no path to a network share or a device is ever a certificate file.
 */

const idle = { isRunning: false, getStatus: () => ({ employeeCount: 0 }) } as unknown as SyncService

function world() {
  const settings = new SettingsStore(new MemoryKeyValueBackend())
  const deps = {
    settings,
    secrets: new MemorySecretStore(),
    sync: idle,
    appInfo: { name: 'RosterDesk', version: '0', platform: 'linux' },
  }
  const handlers = createSettingsHandlers(deps)
  const network = createNetworkHandlers({
    settings,
    sync: idle,
    auth: {} as AuthService,
    fetch: fetch,
    clock: systemClock,
    demoEnvironment: { baseUrl: '', clientId: '', clientSecret: '', redirectUri: '', tenantId: '' },
    profileName: () => 'Demo',
    network: plainNodeNetwork,
    settingsView: () => handlers['settings:get'](),
  })
  return { settings, handlers, network }
}

describe('the certificate file, never from a settings change', () => {
  it('refuses a settings:update that names a certificate file, whatever the value', async () => {
    const { settings, handlers } = world()
    for (const value of ['\\\\attacker\\share\\ca.pem', '/tmp/ca.pem', '']) {
      await expect(handlers['settings:update']({ extraCertificatesFile: value })).rejects.toMatchObject({
        code: 'validation',
        message:
          'The extra trusted certificates are chosen with “Choose file…” in Settings → Network, never by a settings change.',
        fieldErrors: { extraCertificatesFile: expect.stringContaining('Choose file…') },
      })
    }
    expect(settings.get().extraCertificatesFile).toBe('')
    // The rest of a patch alone is saved as before.
    await handlers['settings:update']({ pageSize: 50 })
    expect(settings.get().pageSize).toBe(50)
  })

  it('removes the file through its own channel', async () => {
    const { settings, network } = world()
    settings.update({ extraCertificatesFile: '/etc/rosterdesk/ca.pem' })
    const view = await network['network:remove-certificates']()
    expect(settings.get().extraCertificatesFile).toBe('')
    expect(view.settings.extraCertificatesFile).toBe('')
  })

  it('shows the window the file’s name only, never a path it could send back', async () => {
    const { settings, handlers } = world()
    settings.update({ extraCertificatesFile: '/etc/rosterdesk/company-root.pem' })
    expect((await handlers['settings:get']()).settings.extraCertificatesFile).toBe('company-root.pem')
    settings.update({ extraCertificatesFile: 'C:\\Users\\clerk\\certs\\company-root.pem' })
    expect((await handlers['settings:get']()).settings.extraCertificatesFile).toBe('company-root.pem')
  })
})

describe('a certificate file is a local file', () => {
  it.each([
    '\\\\attacker\\share\\ca.pem',
    '//attacker/share/ca.pem',
    '\\\\?\\UNC\\attacker\\share\\ca.pem',
    '\\\\.\\pipe\\ca',
    '\\\\?\\C:\\certs\\ca.pem',
    '/\\attacker\\share\\ca.pem',
  ])('refuses %s', (path) => {
    expect(certificatesFileProblem(path)).toBe(
      'The certificate file must be on this computer: RosterDesk reads none from a network share (\\\\server\\share) or a device path.',
    )
  })

  it.each(['C:\\certs\\ca.pem', '/etc/ssl/company.pem', ''])('accepts %s', (path) => {
    expect(certificatesFileProblem(path)).toBeUndefined()
  })
})

describe('a machine policy’s certificate file', () => {
  it('is refused when it names a network share, and taken when it is a local path', () => {
    const share = policySchema.safeParse({
      network: { extraCertificatesFile: '\\\\fileserver\\it\\root.pem' },
    })
    expect(share.success).toBe(false)
    expect(JSON.stringify(share.error?.issues)).toContain('must be on this computer')
    expect(
      policySchema.safeParse({ network: { extraCertificatesFile: 'C:\\ProgramData\\RosterDesk\\root.pem' } })
        .success,
    ).toBe(true)
  })
})
