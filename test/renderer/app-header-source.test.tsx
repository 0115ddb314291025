import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { AuthState } from '../../src/shared/domain/auth'
import type { IdentitySettings, RowSource } from '../../src/shared/source-identity'
import { AppHeader } from '../../src/renderer/src/components/app-header'
import type { ProfilesController } from '../../src/renderer/src/hooks/use-profiles'

afterEach(cleanup)

const ACME_STAGING: IdentitySettings = {
  environment: 'staging',
  baseUrls: { staging: 'https://staging.payroll.example.com', production: '' },
  tenantId: 'acme',
}

const profiles: ProfilesController = {
  list: {
    activeId: 'p1',
    profiles: [{ id: 'p1', name: 'Acme Ltd', environment: 'staging', tenantId: 'acme' }],
  },
  generation: 0,
  error: undefined,
  switching: false,
  switchTo: () => undefined,
  refresh: () => undefined,
  create: async () => undefined,
  rename: async () => undefined,
  remove: async () => undefined,
  restoreSetAside: async () => undefined,
  settingsOnArrival: undefined,
  arrived: () => undefined,
}

const auth: AuthState = { status: 'signed-in', environment: 'staging', tenantId: 'acme', secretStorage: 'os' }

/** The header over rows read from `rowSource`, under a profile whose settings are `settings`. */
function header(rowSource: RowSource, settings: IdentitySettings = ACME_STAGING): HTMLElement {
  render(
    <AppHeader
      info={undefined}
      auth={auth}
      profiles={profiles}
      offline={false}
      screen="browse"
      onScreen={() => undefined}
      onSignOut={() => undefined}
      rowSource={rowSource}
      sourceSetting={settings}
    />,
  )
  return screen.getByRole('banner')
}

const tenantText = (banner: HTMLElement): string | null | undefined =>
  banner.querySelector('.tenant')?.textContent

describe('the header names the source of the rows it shows (issue 33, point 6)', () => {
  it('rows from the settings’ own source: the settings’ tenant, no note', () => {
    const banner = header({
      environment: 'staging',
      serviceAddress: 'https://staging.payroll.example.com',
      tenantId: 'acme',
    })
    expect(tenantText(banner)).toBe('Tenant acme')
    expect(within(banner).queryByRole('note')).toBeNull()
  })

  it('Demo’s rows restored under Staging (tenant acme): Demo and tenant-demo, never acme', () => {
    const banner = header({
      environment: 'demo',
      serviceAddress: 'http://127.0.0.1:4010',
      tenantId: 'tenant-demo',
    })
    expect(within(banner).getByRole('note').textContent).toBe('Showing Demo (sample data) employees')
    expect(tenantText(banner)).toBe('Tenant tenant-demo')
    expect(banner.textContent).not.toContain('acme')
  })

  it('the same environment, another tenant: the rows’ tenant, and a note naming it', () => {
    const banner = header({
      environment: 'staging',
      serviceAddress: 'https://staging.payroll.example.com',
      tenantId: 'globex',
    })
    expect(within(banner).getByRole('note').textContent).toBe('Showing Staging · tenant globex employees')
    expect(tenantText(banner)).toBe('Tenant globex')
    expect(banner.textContent).not.toContain('acme')
  })

  it('the same tenant at another address: a note naming the rows’ source', () => {
    const banner = header({
      environment: 'staging',
      serviceAddress: 'https://old.example.com',
      tenantId: 'acme',
    })
    expect(within(banner).getByRole('note').textContent).toBe('Showing Staging · tenant acme employees')
  })
})
