import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { POLICY_LOCKED_LABEL } from '../../src/shared/policy-view'
import type { FakeCoreOptions } from '../helpers/fake/fake-core'
import { renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

/**
 * Settings → Client certificate (issue 31, point 9): the clerk names the certificate RosterDesk sends when the
 * service asks for one, by its name and issuer as the computer's certificate store shows them; saved with the
 * form, both or neither, and disabled where the machine policy names it.
 */

async function openSettings(options: Partial<FakeCoreOptions> = {}) {
  const rendered = renderWithCore({ serviceEmployees: [], ...options })
  fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  await screen.findByRole('heading', { name: 'Settings' })
  return rendered
}

const group = (): HTMLElement => screen.getByRole('group', { name: 'Client certificate' })
const subject = (): HTMLInputElement => within(group()).getByLabelText('Issued to')
const issuer = (): HTMLInputElement => within(group()).getByLabelText('Issued by')
const save = (): boolean => fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
const updates = (calls: { channel: string; args: unknown[] }[]): unknown[] =>
  calls.filter((call) => call.channel === 'settings:update').map((call) => call.args[0])

describe('Settings → Client certificate', () => {
  it('says none is sent by default, and saves the name and issuer typed, trimmed', async () => {
    const { core } = await openSettings()
    expect(subject().value).toBe('')
    expect(issuer().value).toBe('')
    expect(within(group()).getByText(/sends no certificate/)).toBeTruthy()
    fireEvent.change(subject(), { target: { value: ' Clerk One ' } })
    fireEvent.change(issuer(), { target: { value: 'Acme Issuing CA' } })
    save()
    expect(await screen.findByText('Settings saved.')).toBeTruthy()
    expect(updates(core.calls)).toEqual([
      { clientCertificateSubject: 'Clerk One', clientCertificateIssuer: 'Acme Issuing CA' },
    ])
  })

  it('asks for the issuer when only the name is given, under the field', async () => {
    const { core } = await openSettings()
    fireEvent.change(subject(), { target: { value: 'Clerk One' } })
    save()
    expect(await within(group()).findByText(/Enter both the certificate’s name/)).toBeTruthy()
    expect(updates(core.calls)).toEqual([])
  })

  it('is disabled with "Set by your organisation" when the machine policy names the certificate', async () => {
    await openSettings({
      settings: { clientCertificateSubject: 'Clerk One', clientCertificateIssuer: 'Acme Issuing CA' },
      policy: {
        source: '/etc/rosterdesk/policy.json',
        lockedFields: ['clientCertificateSubject', 'clientCertificateIssuer'],
      },
    })
    expect(subject()).toHaveProperty('disabled', true)
    expect(issuer()).toHaveProperty('disabled', true)
    expect(subject().value).toBe('Clerk One')
    expect(within(group()).getAllByText(POLICY_LOCKED_LABEL).length).toBeGreaterThan(0)
  })
})
