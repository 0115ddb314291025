import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connectionReportText } from '../../src/shared/connection-report'
import { PROXY_MODE_LABELS } from '../../src/shared/settings-rules'
import type { FakeCoreOptions } from '../helpers/fake/fake-core'
import { FAKE_DEMO_BASE_URL, INSPECTED_TLS_REPORT } from '../helpers/fake/fake-network'
import { renderWithCore } from './render-app'

/** What the page wrote to the clipboard, newest last (jsdom has no clipboard of its own). */
let clipboard: string[] = []
const realClipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard')
beforeEach(() => {
  clipboard = []
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: (text: string) => {
        clipboard.push(text)
        return Promise.resolve()
      },
    },
  })
})
afterEach(() => {
  cleanup()
  if (realClipboard) Object.defineProperty(navigator, 'clipboard', realClipboard)
  else Reflect.deleteProperty(navigator, 'clipboard')
})

async function openSettings(options: Partial<FakeCoreOptions> = {}) {
  const rendered = renderWithCore({ serviceEmployees: [], ...options })
  fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  await screen.findByRole('heading', { name: 'Settings' })
  return rendered
}

const network = (): HTMLElement => screen.getByRole('group', { name: 'Network' })
const proxyGroup = (): HTMLElement => within(network()).getByRole('group', { name: 'Proxy' })
const mode = (label: string): HTMLInputElement => within(proxyGroup()).getByRole('radio', { name: label })
const field = (label: string): HTMLInputElement => within(network()).getByLabelText(label)
const save = (): boolean => fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
const updates = (calls: { channel: string; args: unknown[] }[]): unknown[] =>
  calls.filter((call) => call.channel === 'settings:update').map((call) => call.args[0])
const certificates = (): HTMLElement =>
  within(network()).getByRole('group', { name: 'Extra trusted certificates' })
const remembered = (): HTMLElement =>
  within(network()).getByRole('group', { name: 'Remembered proxy sign-ins' })
const testButton = (): HTMLButtonElement => screen.getByRole('button', { name: 'Test connection' })
const resultLine = (): HTMLElement => network().querySelector<HTMLElement>('.check-result')!
const steps = (): HTMLElement[] =>
  within(screen.getByRole('region', { name: 'Connection report' }))
    .getAllByRole('listitem')
    .filter((item) => item.classList.contains('check-step'))

describe('Settings → Network: the proxy', () => {
  it("offers the four choices, the system's settings by default, and shows only the fields each needs", async () => {
    await openSettings()
    const radios = within(proxyGroup()).getAllByRole('radio') as HTMLInputElement[]
    expect(radios.map((radio) => radio.labels?.[0]?.textContent)).toEqual([
      PROXY_MODE_LABELS.system,
      PROXY_MODE_LABELS.none,
      PROXY_MODE_LABELS.fixed,
      PROXY_MODE_LABELS.pac,
    ])
    expect(mode("Use the system's settings").checked).toBe(true)
    // What "the system's settings" means is said where the choice is made.
    expect(proxyGroup().getAttribute('aria-describedby')).toBe('setting-proxyMode-hint')
    expect(document.getElementById('setting-proxyMode-hint')?.textContent).toMatch(
      /follows what this computer is set to use/,
    )
    const shownFields = (): string[] =>
      within(network())
        .queryAllByRole('textbox')
        .map((box) => box.id)
    expect(shownFields()).toEqual([])

    fireEvent.click(mode('This proxy'))
    expect(shownFields()).toEqual(['setting-proxyUrl', 'setting-proxyBypass'])
    expect(field('Proxy address').getAttribute('aria-describedby')).toBe('setting-proxyUrl-hint')
    expect(field('Bypass the proxy for')).toBeTruthy()

    fireEvent.click(mode('This PAC file'))
    expect(shownFields()).toEqual(['setting-pacUrl'])
    expect(field('PAC file address')).toBeTruthy()

    fireEvent.click(mode('No proxy'))
    expect(shownFields()).toEqual([])
  })

  it('saves a proxy with its bypass list as main stores them, through the form like every setting', async () => {
    const { core } = await openSettings()
    fireEvent.click(mode('This proxy'))
    fireEvent.change(field('Proxy address'), { target: { value: ' proxy.corp.example:8080 ' } })
    fireEvent.change(field('Bypass the proxy for'), {
      target: { value: '*.corp.example; 10.0.0.0/8  <local>' },
    })
    save()
    expect(await screen.findByText('Settings saved.')).toBeTruthy()
    expect(updates(core.calls)).toEqual([
      {
        proxyMode: 'fixed',
        proxyUrl: 'http://proxy.corp.example:8080',
        proxyBypass: '*.corp.example, 10.0.0.0/8, <local>',
      },
    ])
    // The form shows what was saved, normalised.
    expect(field('Proxy address').value).toBe('http://proxy.corp.example:8080')
    expect(field('Bypass the proxy for').value).toBe('*.corp.example, 10.0.0.0/8, <local>')
  })

  it('asks for the address a chosen mode needs, and refuses a proxy address with a password, under the field', async () => {
    const { core } = await openSettings()
    fireEvent.click(mode('This proxy'))
    save()
    const message = await screen.findByText(
      'Enter the proxy address, for example http://proxy.example.com:8080.',
    )
    expect(message.id).toBe('setting-proxyUrl-error')
    expect(field('Proxy address').getAttribute('aria-invalid')).toBe('true')
    expect(field('Proxy address').getAttribute('aria-describedby')).toBe(
      'setting-proxyUrl-error setting-proxyUrl-hint',
    )
    // The clerk is taken to it.
    expect(document.activeElement).toBe(field('Proxy address'))

    fireEvent.change(field('Proxy address'), {
      target: { value: 'http://clerk:secret@proxy.corp.example:8080' },
    })
    expect(screen.queryByText(/Enter the proxy address/)).toBeNull()
    save()
    expect(
      await screen.findByText(
        'The proxy address must not contain a user name or password: RosterDesk asks for them when the proxy does.',
      ),
    ).toBeTruthy()

    fireEvent.click(mode('This PAC file'))
    save()
    expect(
      await screen.findByText('Enter the PAC file address, for example http://wpad.example.com/proxy.pac.'),
    ).toBeTruthy()
    fireEvent.change(field('PAC file address'), { target: { value: 'wpad/proxy.pac' } })
    save()
    expect(
      await screen.findByText(
        'The PAC file address must be a full address such as http://wpad.example.com/proxy.pac.',
      ),
    ).toBeTruthy()
    expect(updates(core.calls)).toEqual([])
  })

  it('saves a mode without the fields it hides: what was typed there and hidden neither blocks the save nor is saved', async () => {
    const { core } = await openSettings({
      settings: { proxyMode: 'fixed', proxyUrl: 'http://proxy.corp.example:8080' },
    })
    expect(mode('This proxy').checked).toBe(true)
    fireEvent.change(field('Proxy address'), { target: { value: 'not a proxy' } })
    fireEvent.click(mode('No proxy'))
    save()
    expect(await screen.findByText('Settings saved.')).toBeTruthy()
    expect(updates(core.calls)).toEqual([{ proxyMode: 'none' }])
    // Chosen again, the saved proxy is back.
    fireEvent.click(mode('This proxy'))
    expect(field('Proxy address').value).toBe('http://proxy.corp.example:8080')
  })

  it("puts main's message about a network field under it", async () => {
    const { core } = await openSettings()
    const { FakeIpcError } = await import('../helpers/fake/fake-api')
    core.handlers['settings:update'] = async () => {
      throw new FakeIpcError('validation', 'Check the proxy.', {
        proxyBypass: 'That bypass list is too long.',
      })
    }
    fireEvent.click(mode('This proxy'))
    fireEvent.change(field('Proxy address'), { target: { value: 'http://proxy.corp.example:8080' } })
    save()
    expect((await screen.findByText('That bypass list is too long.')).id).toBe('setting-proxyBypass-error')
  })
})

describe('Settings → Network: extra certificates and remembered sign-ins', () => {
  it('chooses a certificate file through main, shows its name (never its path), and removes it (saved at once)', async () => {
    const { core } = await openSettings({
      network: { chosenCertificates: '/home/clerk/Zscaler Root CA.pem' },
    })
    expect(within(certificates()).getByText('None')).toBeTruthy()
    expect(within(certificates()).queryByRole('button', { name: 'Remove' })).toBeNull()
    // When a clerk needs it is said beside it.
    expect(
      within(certificates()).getByText(/Only when IT gives you a certificate file \(\.pem\)/),
    ).toBeTruthy()

    fireEvent.click(within(certificates()).getByRole('button', { name: 'Choose file…' }))
    expect(await within(certificates()).findByText('Zscaler Root CA.pem')).toBeTruthy()
    expect(within(certificates()).getByRole('status').textContent).toBe(
      'Saved: RosterDesk trusts the certificates in this file.',
    )
    expect(core.calls.filter((call) => call.channel === 'network:choose-certificates')).toHaveLength(1)
    expect((await core.handlers['settings:get']()).settings.extraCertificatesFile).toBe('Zscaler Root CA.pem')

    const remove = within(certificates()).getByRole('button', { name: 'Remove' })
    remove.focus()
    fireEvent.click(remove)
    expect(await within(certificates()).findByText('None')).toBeTruthy()
    // Its own channel: a settings change cannot name the file (issue 31, point 2).
    expect(updates(core.calls)).toEqual([])
    expect(core.calls.filter((call) => call.channel === 'network:remove-certificates')).toHaveLength(1)
    // The pressed button is gone: the focus stays in the field (moved there once the row without it is drawn).
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(certificates()).getByRole('button', { name: 'Choose file…' }),
      ),
    )
    expect(within(certificates()).getByRole('status').textContent).toMatch(/^Removed:/)
  })

  it('leaves the file as it was when the dialog is cancelled, and says why main refused a file', async () => {
    const { core } = await openSettings({
      settings: { extraCertificatesFile: '/etc/company.pem' },
      network: { chosenCertificates: null },
    })
    const choose = within(certificates()).getByRole('button', { name: 'Choose file…' })
    fireEvent.click(choose)
    await waitFor(() =>
      expect(core.calls.some((call) => call.channel === 'network:choose-certificates')).toBe(true),
    )
    await waitFor(() => expect((choose as HTMLButtonElement).disabled).toBe(false))
    expect(within(certificates()).getByText('company.pem')).toBeTruthy()
    expect(within(certificates()).queryByRole('status')).toBeNull()

    core.network.setChosenCertificates({
      code: 'validation',
      message: 'notes.txt holds no certificate (PEM).',
    })
    fireEvent.click(choose)
    const alert = await within(certificates()).findByText('notes.txt holds no certificate (PEM).')
    expect(alert.id).toBe('setting-extraCertificatesFile-error')
    expect(within(certificates()).getByText('company.pem')).toBeTruthy()
  })

  it('keeps unsaved edits when a file is chosen, and a later Save keeps the chosen file', async () => {
    const { core } = await openSettings()
    // An edit not saved yet (the page size: Demo's tenant is Demo's own, shown but not edited).
    fireEvent.change(screen.getByLabelText('Page size'), { target: { value: '250' } })
    fireEvent.click(within(certificates()).getByRole('button', { name: 'Choose file…' }))
    expect(await within(certificates()).findByText('company-root.pem')).toBeTruthy()
    expect((screen.getByLabelText('Page size') as HTMLInputElement).value).toBe('250')
    save()
    expect(await screen.findByText('Settings saved.')).toBeTruthy()
    expect(updates(core.calls)).toEqual([{ pageSize: 250 }])
    expect((await core.handlers['settings:get']()).settings.extraCertificatesFile).toBe('company-root.pem')
  })

  it('lists remembered proxy sign-ins, each with Forget, and says when there are none', async () => {
    const { core } = await openSettings({
      network: { rememberedProxies: ['proxy-a.corp.example:8080', 'proxy-b.corp.example:3128'] },
    })
    const forgets = within(remembered()).getAllByRole('button')
    expect(forgets.map((button) => [button.textContent, button.getAttribute('aria-label')])).toEqual([
      ['Forget', 'Forget proxy-a.corp.example:8080'],
      ['Forget', 'Forget proxy-b.corp.example:3128'],
    ])
    fireEvent.click(forgets[0]!)
    expect(
      await within(remembered()).findByText('Forgot the sign-in for proxy-a.corp.example:8080.'),
    ).toBeTruthy()
    expect(within(remembered()).queryByText('proxy-a.corp.example:8080')).toBeNull()
    expect(
      core.calls.filter((call) => call.channel === 'network:forget-proxy-password').map((call) => call.args),
    ).toEqual([['proxy-a.corp.example:8080']])
    // The focus goes on to the Forget left.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(remembered()).getByRole('button', { name: 'Forget proxy-b.corp.example:3128' }),
      ),
    )
    fireEvent.click(within(remembered()).getByRole('button', { name: 'Forget proxy-b.corp.example:3128' }))
    expect(
      await within(remembered()).findByText('No proxy sign-in is remembered on this computer.'),
    ).toBeTruthy()
    await waitFor(() => expect(document.activeElement).toBe(remembered()))
    expect(core.network.rememberedProxies()).toEqual([])
  })
})

const REPORT = INSPECTED_TLS_REPORT

describe('Settings → Network: Test connection', () => {
  it('says it is testing while the check runs (button disabled), then shows each step and gives the focus back', async () => {
    const { core } = await openSettings({ network: { manualCheck: true } })
    expect(resultLine().getAttribute('role')).toBe('status')
    expect(resultLine().textContent).toBe('')
    testButton().focus()
    fireEvent.click(testButton())
    expect(testButton().disabled).toBe(true)
    expect(resultLine().textContent).toBe('Testing…')
    await waitFor(() => expect(core.calls.some((call) => call.channel === 'network:check')).toBe(true))
    core.network.releaseCheck()
    await waitFor(() =>
      expect(resultLine().textContent).toBe(
        'Result: no step failed; “One employee list request” was skipped (– below).',
      ),
    )
    expect(testButton().disabled).toBe(false)
    expect(document.activeElement).toBe(testButton())
    // Before sign-in: the fake's check of the saved settings (Demo, the system's proxy), the list step skipped.
    expect(
      within(screen.getByRole('region', { name: 'Connection report' })).getByText(FAKE_DEMO_BASE_URL),
    ).toBeTruthy()
    expect(steps().map((step) => step.querySelector('.check-state')?.textContent)).toEqual([
      '✓ Passed',
      '✓ Passed',
      '✓ Passed',
      '– Skipped',
    ])
  })

  it('runs after sign-in too, with the list request', async () => {
    await openSettings({ signedIn: true, serviceEmployees: [] })
    fireEvent.click(testButton())
    await waitFor(() => expect(resultLine().textContent).toBe('Result: every step passed.'))
    const list = steps().at(-1)!
    expect(list.textContent).toContain('✓ Passed')
    expect(list.textContent).toContain('One employee list request')
    expect(list.textContent).toContain('HTTP 200, tenant tenant-demo.')
  })

  it('shows every step with its outcome in words, label, time and message, and the chain under its step', async () => {
    await openSettings({ network: { report: REPORT } })
    fireEvent.click(testButton())
    await waitFor(() =>
      expect(resultLine().textContent).toBe(
        'Result: the connection failed at “Authorize page answers” (✗ below).',
      ),
    )
    const rows = steps()
    expect(rows.map((row) => row.className)).toEqual([
      'check-step check-ok',
      'check-step check-failed',
      'check-step check-skipped',
      'check-step check-skipped',
    ])
    const parts = (row: HTMLElement): (string | null | undefined)[] =>
      ['.check-state', '.check-label', '.check-time', '.check-message'].map(
        (selector) => row.querySelector(selector)?.textContent,
      )
    expect(parts(rows[0]!)).toEqual([
      '✓ Passed',
      'Proxy for https://payroll.example.com',
      '12 ms',
      'PROXY proxy.corp.example:8080.',
    ])
    expect(parts(rows[1]!)).toEqual(['✗ Failed', 'Authorize page answers', '1.4 s', REPORT.steps[1]!.message])
    // A skipped step took no time, so none is shown.
    expect(parts(rows[2]!)).toEqual([
      '– Skipped',
      'Token endpoint answers JSON',
      undefined,
      'Not tried: the service could not be reached.',
    ])
    // The mark is decoration; the word says it.
    expect(rows[1]!.querySelector('.check-state [aria-hidden="true"]')?.textContent).toBe('✗')

    const chain = within(rows[1]!).getByRole('list', { name: 'Certificates seen: Authorize page answers' })
    expect(
      within(chain)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'CN=payroll.example.com, issued by CN=Zscaler Intermediate CAValid 2026-11-01 to 2026-12-01; SHA-256 AA:BB:CC',
      'CN=Zscaler Intermediate CA, issued by CN=Zscaler Root CAValid 2020-01-01 to 2030-01-01; SHA-256 DD:EE:FF',
    ])
    expect(within(rows[0]!).queryByRole('list')).toBeNull()
    expect(screen.getByRole('region', { name: 'Connection report' }).textContent).toContain(
      'profile Acme Ltd',
    )
  })

  it("puts the report's text on the clipboard with Copy report, and says so", async () => {
    await openSettings({ network: { report: REPORT } })
    fireEvent.click(testButton())
    fireEvent.click(await screen.findByRole('button', { name: 'Copy report' }))
    await waitFor(() => expect(clipboard).toEqual([connectionReportText(REPORT)]))
    const notice = screen.getByText('Report copied. Paste it into an e-mail or ticket for IT.')
    expect(notice.getAttribute('role')).toBe('status')
  })

  it('says when the clipboard refused the copy', async () => {
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: () => Promise.reject(new Error('not allowed')) },
    })
    await openSettings({ network: { report: REPORT } })
    fireEvent.click(testButton())
    fireEvent.click(await screen.findByRole('button', { name: 'Copy report' }))
    expect(await screen.findByText('RosterDesk could not copy to the clipboard. Try again.')).toBeTruthy()
  })

  it('shows an error of the check itself as other errors are, and no report', async () => {
    await openSettings({
      network: {
        report: { code: 'internal', message: 'RosterDesk could not start the connection check. Try again.' },
      },
    })
    fireEvent.click(testButton())
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('RosterDesk could not start the connection check. Try again.')
    expect(alert.className).toBe('message message-error')
    expect(screen.queryByRole('region', { name: 'Connection report' })).toBeNull()
    expect(testButton().disabled).toBe(false)
  })

  it('says the saved settings are what it tests while the form has unsaved changes', async () => {
    await openSettings()
    const hint = (): string => document.getElementById('connection-check-hint')?.textContent ?? ''
    expect(testButton().getAttribute('aria-describedby')).toBe('connection-check-hint')
    expect(hint()).not.toContain('Save your changes first')
    fireEvent.click(mode('No proxy'))
    expect(hint()).toContain('Save your changes first to test them.')
    fireEvent.click(mode("Use the system's settings"))
    expect(hint()).not.toContain('Save your changes first')
  })
})
