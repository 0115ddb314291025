import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PAGE_SIZE_SETTING } from '../../src/shared/settings-rules'
import { FakeIpcError } from '../helpers/fake/fake-api'
import type { FakeCoreOptions } from '../helpers/fake/fake-core'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore } from './render-app'
import { SettingsScreen } from '../../src/renderer/src/components/settings-screen'
import { useSettings } from '../../src/renderer/src/hooks/use-settings'

afterEach(cleanup)

async function openSettings(options: Partial<FakeCoreOptions> = {}) {
  const rendered = renderWithCore({
    serviceEmployees: [],
    settings: { trackedPayCycles: ['PC-2026-11-A'] },
    ...options,
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  await screen.findByRole('heading', { name: 'Settings' })
  return rendered
}

function SettingsOnly() {
  const settings = useSettings()
  return <SettingsScreen settings={settings} inUse={undefined} dataVersion="1" onDone={() => undefined} />
}

function field(label: string): HTMLInputElement {
  return screen.getByLabelText(label)
}

describe('settings screen', () => {
  it('shows the saved settings, the secret only as stored or not, and every field by its label', async () => {
    await openSettings()
    expect(field('Environment').value).toBe('demo')
    expect(field('Client ID').value).toBe('rosterdesk-demo')
    expect(field('Redirect URI').value).toBe('com.rosterdesk.app:/oauth/callback')
    expect(field('Tenant ID').value).toBe('tenant-demo')
    expect(field('Scopes').value).toBe('read')
    expect(field('Page size').value).toBe('500')
    // Only the fallback since the sync asks for the service's largest page: said as the CLI's usage says it.
    expect(document.getElementById('setting-pageSize-hint')?.textContent).toBe(PAGE_SIZE_SETTING.help)
    expect(PAGE_SIZE_SETTING.help).toMatch(/^Used only when the service refuses larger pages/)
    expect(field('Parallel requests').value).toBe('4')
    // Nothing saved yet: the tracked pay cycle is listed as such, ticked, so it can be unticked.
    const tracked = await screen.findByRole('checkbox', { name: 'PC-2026-11-A (not in the saved employees)' })
    expect((tracked as HTMLInputElement).checked).toBe(true)
    // Demo's service is built in: neither address shows (issue 33, point 10).
    expect(screen.queryByLabelText('Staging address')).toBeNull()
    expect(screen.queryByLabelText('Production address')).toBeNull()
    expect(field('Client secret').value).toBe('')
    expect(screen.getByText('Not stored')).toBeTruthy()
  })

  it('shows only the chosen environment’s address, keeping the other one’s as saved (issue 33, point 10)', async () => {
    const { core } = await openSettings({
      settings: {
        environment: 'staging',
        baseUrls: { staging: 'https://staging.example.com', production: 'https://payroll.example.com' },
      },
    })
    expect(field('Staging address').value).toBe('https://staging.example.com')
    expect(screen.queryByLabelText('Production address')).toBeNull()
    fireEvent.change(field('Staging address'), { target: { value: 'https://typed.example.com' } })
    fireEvent.change(field('Environment'), { target: { value: 'production' } })
    expect(screen.queryByLabelText('Staging address')).toBeNull()
    expect(field('Production address').value).toBe('https://payroll.example.com')
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(await screen.findByText('Settings saved.')).toBeTruthy()
    // What was typed into the address no longer shown is not saved unseen.
    expect(core.calls.find((call) => call.channel === 'settings:update')?.args[0]).toEqual({
      environment: 'production',
    })
  })

  it('marks each invalid field with a message and does not send anything', async () => {
    const { core } = await openSettings()
    fireEvent.change(field('Page size'), { target: { value: '0' } })
    fireEvent.change(field('Parallel requests'), { target: { value: 'four' } })
    fireEvent.change(field('Redirect URI'), { target: { value: 'https://rosterdesk.example.com/cb' } })
    // Demo's tenant and address are its own: the fields take them once Staging or Production is chosen.
    fireEvent.change(field('Environment'), { target: { value: 'staging' } })
    fireEvent.change(field('Staging address'), { target: { value: 'http://payroll.example.com' } })
    fireEvent.change(field('Tenant ID'), { target: { value: 'my tenant' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))

    expect(
      await screen.findByText('Some settings need attention; see the messages below each field.'),
    ).toBeTruthy()
    expect(screen.getByText('Page size must be a whole number from 1 to 10,000.')).toBeTruthy()
    expect(screen.getByText('Parallel requests must be a whole number from 1 to 16.')).toBeTruthy()
    expect(
      screen.getByText(
        'The Staging address must start with https:// (plain http is allowed only for this computer).',
      ),
    ).toBeTruthy()
    expect(
      screen.getByText(
        'RosterDesk cannot receive an https redirect; use com.rosterdesk.app:/oauth/callback.',
      ),
    ).toBeTruthy()
    expect(screen.getByText('The tenant ID must not contain spaces or accented letters.')).toBeTruthy()
    expect(field('Page size').getAttribute('aria-invalid')).toBe('true')
    expect(field('Page size').getAttribute('aria-describedby')).toContain('setting-pageSize-error')
    expect(core.calls.map((call) => call.channel)).not.toContain('settings:update')

    fireEvent.change(field('Page size'), { target: { value: '250' } })
    expect(screen.queryByText('Page size must be a whole number from 1 to 10,000.')).toBeNull()
  })

  it('asks for the address of the environment it switches to', async () => {
    await openSettings()
    fireEvent.change(field('Environment'), { target: { value: 'production' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(
      await screen.findByText('Enter the Production address to use the Production environment.'),
    ).toBeTruthy()
  })

  it('sends only what changed and confirms', async () => {
    const { core } = await openSettings()
    fireEvent.change(field('Page size'), { target: { value: '1000' } })
    fireEvent.change(field('Environment'), { target: { value: 'staging' } })
    fireEvent.change(field('Staging address'), { target: { value: 'https://staging.payroll.example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(await screen.findByText('Settings saved.')).toBeTruthy()
    const update = core.calls.find((call) => call.channel === 'settings:update')
    expect(update?.args[0]).toEqual({
      environment: 'staging',
      pageSize: 1000,
      baseUrls: { staging: 'https://staging.payroll.example.com', production: '' },
    })
  })

  it('chooses tracked pay cycles from those of the saved employees, with their sizes, never typed', async () => {
    // The settings screen alone, over a cache with employees (the app would show them behind Settings).
    const { core } = renderWithCore(
      {
        serviceEmployees: makeEmployees(41),
        synced: true,
        settings: { trackedPayCycles: ['PC-ENDED', 'PC-2026-11-A'] },
      },
      <SettingsOnly />,
    )
    const group = await screen.findByRole('group', { name: 'Tracked pay cycles' })
    await within(group).findByRole('checkbox', { name: 'PC-2026-11-A (11 employees)' })
    const boxes = within(group).getAllByRole('checkbox') as HTMLInputElement[]
    expect(boxes.map((box) => [box.labels?.[0]?.textContent, box.checked])).toEqual([
      ['PC-2026-11-A (11 employees)', true],
      ['PC-2026-11-B (10 employees)', false],
      ['PC-2026-12-A (10 employees)', false],
      ['PC-MONTHLY (10 employees)', false],
      // Tracked, but no saved employee is in it (ended, or mistyped in an older release): listed to untick.
      ['PC-ENDED (not in the saved employees)', true],
    ])
    expect(screen.queryByRole('textbox', { name: /pay cycle/i })).toBeNull()

    fireEvent.click(within(group).getByRole('checkbox', { name: 'PC-ENDED (not in the saved employees)' }))
    fireEvent.click(within(group).getByRole('checkbox', { name: 'PC-MONTHLY (10 employees)' }))
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(await screen.findByText('Settings saved.')).toBeTruthy()
    expect(core.calls.find((call) => call.channel === 'settings:update')?.args[0]).toEqual({
      trackedPayCycles: ['PC-2026-11-A', 'PC-MONTHLY'],
    })
    // No longer tracked and not in the data: gone from the list.
    expect(within(group).queryByRole('checkbox', { name: /PC-ENDED/ })).toBeNull()
  })

  it('says when no saved employee belongs to a pay cycle yet', async () => {
    await openSettings({ settings: { trackedPayCycles: [] } })
    const group = screen.getByRole('group', { name: 'Tracked pay cycles' })
    expect(
      await within(group).findByText('No saved employee belongs to a pay cycle yet. Sync, then choose here.'),
    ).toBeTruthy()
  })

  it("shows the service's message when main refuses the change", async () => {
    const { core } = await openSettings({
      settings: {
        environment: 'staging',
        baseUrls: { staging: 'https://staging.example.com', production: '' },
      },
    })
    core.handlers['settings:update'] = async () => {
      throw new FakeIpcError('validation', 'The tenant ID tenant-x is not known to the payroll service.')
    }
    fireEvent.change(field('Tenant ID'), { target: { value: 'tenant-x' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'The tenant ID tenant-x is not known to the payroll service.',
    )
    expect(field('Tenant ID').value).toBe('tenant-x')
  })

  it("puts main's per-field messages under the fields they name", async () => {
    const { core } = await openSettings()
    core.handlers['settings:update'] = async () => {
      throw new FakeIpcError('validation', 'Check these fields: baseUrls.staging.', {
        'baseUrls.staging': 'The Staging address could not be used.',
      })
    }
    fireEvent.change(field('Environment'), { target: { value: 'staging' } })
    fireEvent.change(field('Staging address'), { target: { value: 'https://staging.example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(await screen.findByText('The Staging address could not be used.')).toBeTruthy()
  })

  it('keeps employees up to date: a warning threshold, sync on launch and an interval, off unless turned on', async () => {
    const { core } = await openSettings()
    const group = screen.getByRole('group', { name: 'Keeping employees up to date' })
    const threshold = within(group).getByLabelText(
      'Warn when the data is older than (hours)',
    ) as HTMLInputElement
    const onLaunch = within(group).getByLabelText('Sync when RosterDesk starts') as HTMLInputElement
    const every = within(group).getByLabelText('Sync automatically every (hours)') as HTMLInputElement
    expect([threshold.value, onLaunch.checked, every.value]).toEqual(['24', false, '0'])
    // The form says what the defaults are, in the clerk's words.
    expect(within(group).getByText(/Off by default\./)).toBeTruthy()
    expect(within(group).getByText(/^0 turns automatic syncs off \(the default\)/)).toBeTruthy()
    expect(within(group).getByText(/1 to 720 hours, 24 by default\./)).toBeTruthy()

    fireEvent.change(threshold, { target: { value: '0' } })
    fireEvent.change(every, { target: { value: 'daily' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(
      await within(group).findByText(
        'Enter how many hours old the data may get before RosterDesk warns: a whole number from 1 to 720.',
      ),
    ).toBeTruthy()
    expect(
      within(group).getByText(
        'Enter how many hours apart automatic syncs run: a whole number from 0 to 24 (0 turns them off).',
      ),
    ).toBeTruthy()
    expect(every.getAttribute('aria-invalid')).toBe('true')
    expect(core.calls.map((call) => call.channel)).not.toContain('settings:update')

    fireEvent.change(threshold, { target: { value: '48' } })
    fireEvent.click(onLaunch)
    fireEvent.change(every, { target: { value: '4' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(await screen.findByText('Settings saved.')).toBeTruthy()
    expect(core.calls.find((call) => call.channel === 'settings:update')?.args[0]).toEqual({
      staleAfterHours: 48,
      syncOnLaunch: true,
      syncEveryHours: 4,
    })
    expect(onLaunch.checked).toBe(true)
  })

  it('shows the sync limits under Advanced with their ranges and defaults, and saves a changed one', async () => {
    const { core } = await openSettings()
    const group = screen.getByRole('group', { name: 'Advanced' })
    const wait = within(group).getByLabelText<HTMLInputElement>('Longest wait for an answer (seconds)')
    const longest = within(group).getByLabelText<HTMLInputElement>('Longest sync (minutes)')
    const most = within(group).getByLabelText<HTMLInputElement>('Most employees')
    expect([wait.value, longest.value, most.value]).toEqual(['30', '120', '5000000'])
    expect(wait.getAttribute('aria-describedby')).toBeTruthy()
    expect(within(group).getByText(/before it tries again: 1 to 600 seconds, 30 by default\./)).toBeTruthy()
    expect(within(group).getByText(/stopped: 1 to 1,440 minutes, 120 by default\./)).toBeTruthy()
    expect(within(group).getByText(/1 to 1,000,000,000, 5,000,000 by default\./)).toBeTruthy()

    fireEvent.change(most, { target: { value: '5,000,000' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(
      await within(group).findByText('Most employees must be a whole number from 1 to 1,000,000,000.'),
    ).toBeTruthy()
    expect(most.getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(most)
    expect(core.calls.map((call) => call.channel)).not.toContain('settings:update')

    fireEvent.change(most, { target: { value: '20000000' } })
    fireEvent.change(wait, { target: { value: '90' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(await screen.findByText('Settings saved.')).toBeTruthy()
    expect(core.calls.find((call) => call.channel === 'settings:update')?.args[0]).toEqual({
      requestTimeoutSeconds: 90,
      maxEmployees: 20_000_000,
    })
    expect(most.value).toBe('20000000')
  })

  it('stores the client secret write-only with the one Save: the field empties and only "Stored" remains', async () => {
    const { core } = await openSettings()
    // Beside the client ID, in Sign-in (issue 33, point 10); no Save of its own.
    const signIn = screen.getByRole('group', { name: 'Sign-in' })
    expect(within(signIn).getByLabelText('Client ID')).toBeTruthy()
    expect(within(signIn).getByLabelText('Client secret')).toBe(field('Client secret'))
    expect(screen.queryByRole('button', { name: 'Save secret' })).toBeNull()
    // Nothing typed: nothing to save, and the stored secret (none here) is kept.
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(await screen.findByText('Nothing to save: the settings are unchanged.')).toBeTruthy()

    fireEvent.change(field('Client secret'), { target: { value: 's3cret-value' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(await screen.findByText('Client secret saved.')).toBeTruthy()
    await waitFor(() => expect(within(signIn).getByText('Stored')).toBeTruthy())
    expect(field('Client secret').value).toBe('')
    expect(document.body.innerHTML).not.toContain('s3cret-value')
    // Its own channel, the settings untouched.
    expect(core.calls.find((call) => call.channel === 'settings:set-client-secret')?.args).toEqual([
      's3cret-value',
    ])
    expect(core.calls.map((call) => call.channel)).not.toContain('settings:update')
  })

  it('saves a new client ID first, then the secret typed beside it, so the secret is bound to the new one', async () => {
    const { core } = await openSettings({
      settings: {
        environment: 'staging',
        baseUrls: { staging: 'https://staging.example.com', production: '' },
      },
    })
    fireEvent.change(field('Client ID'), { target: { value: 'acme-desk' } })
    fireEvent.change(field('Client secret'), { target: { value: 'acme-secret' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(await screen.findByText('Settings saved. Client secret saved.')).toBeTruthy()
    const sent = core.calls.filter((call) =>
      ['settings:update', 'settings:set-client-secret'].includes(call.channel),
    )
    expect(sent).toEqual([
      { channel: 'settings:update', args: [{ clientId: 'acme-desk' }] },
      { channel: 'settings:set-client-secret', args: ['acme-secret'] },
    ])

    // A refusal of the secret is said in the footer and under the field, the settings saved regardless.
    core.handlers['settings:set-client-secret'] = async () => {
      throw new FakeIpcError('storage', 'RosterDesk could not save its sign-in details.')
    }
    fireEvent.change(field('Client secret'), { target: { value: 'another' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'The client secret was not saved: RosterDesk could not save its sign-in details.',
    )
    expect(document.getElementById('client-secret-error')?.textContent).toBe(
      'RosterDesk could not save its sign-in details.',
    )
    expect(field('Client secret').value).toBe('another')
  })
})
