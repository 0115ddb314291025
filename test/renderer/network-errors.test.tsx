import { act, fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import {
  OWN_NETWORK_ERROR_CODES,
  UNREACHABLE_ERROR_CODES,
  type IpcErrorCode,
} from '../../src/shared/ipc-error-codes'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

const OFFLINE = 'Offline — showing saved employees'

/** Main's words for each new code, as a clerk would read them (the fake passes them on as they are). */
const MESSAGES: Readonly<Partial<Record<IpcErrorCode, string>>> = {
  network: 'RosterDesk could not reach the payroll service.',
  'host-not-found': 'The name payroll.example.com does not resolve: check the address in Settings.',
  'connection-refused': 'payroll.example.com:443 refused the connection.',
  timeout: 'The payroll service did not answer within 30 s.',
  offline: 'This computer is offline. The saved employees are from the last sync.',
  'proxy-auth': 'The proxy proxy.corp.example:8080 refused the user name or password. Sign in to it again.',
  certificate:
    'The payroll service’s certificate is not trusted: it was issued by Zscaler Root CA. Ask IT to install it, or choose it in Settings → Network.',
  'web-page':
    'A web page (“Guest Wi-Fi sign-in”) answered instead of the payroll service: sign in to the network first.',
}

/** A synced, signed-in app whose next sync fails with `code`; the failure's message is on screen when it returns. */
async function failSyncWith(code: IpcErrorCode): Promise<void> {
  const message = MESSAGES[code]!
  renderWithCore({
    serviceEmployees: makeEmployees(10),
    synced: true,
    signedIn: true,
    syncFailure: { code, message },
  })
  fireEvent.click(await screen.findByRole('button', { name: 'Sync' }))
  // Shown as main worded it, not mapped to a generic text.
  expect((await screen.findByText(message)).getAttribute('role')).toBe('alert')
}

function comeBackOnline(): void {
  act(() => {
    window.dispatchEvent(new Event('online'))
  })
}

describe('the network codes on screen', () => {
  it.each([...OWN_NETWORK_ERROR_CODES])(
    '%s: the clerk’s own network, so the window shows itself offline until the network is back',
    async (code) => {
      await failSyncWith(code)
      expect(screen.getByText(OFFLINE)).toBeTruthy()
      comeBackOnline()
      expect(screen.queryByText(MESSAGES[code]!)).toBeNull()
      expect(screen.queryByText(OFFLINE)).toBeNull()
    },
  )

  it.each(UNREACHABLE_ERROR_CODES.filter((code) => !OWN_NETWORK_ERROR_CODES.includes(code)))(
    '%s: the service did not answer, which is said as that, never as the window being offline',
    async (code) => {
      await failSyncWith(code)
      expect(screen.queryByText(OFFLINE)).toBeNull()
      comeBackOnline()
      expect(screen.queryByText(MESSAGES[code]!)).toBeNull()
    },
  )

  it.each(['proxy-auth', 'certificate', 'web-page'] as const)(
    '%s: the service was reached and refused, so the message stays as said and the window is not offline',
    async (code) => {
      await failSyncWith(code)
      expect(screen.queryByText(OFFLINE)).toBeNull()
      comeBackOnline()
      expect(screen.getByText(MESSAGES[code]!)).toBeTruthy()
    },
  )
})
