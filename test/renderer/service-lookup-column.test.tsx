import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import { fakeUuid, makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore, setUpAppTests } from './render-app'

/**
 * "Look up on the service" follows the text typed: a number is looked up in the employee-number column (the
 * data's first identifier column of digits), never in the names; the fake's service lookup applies the app's
 * own rules (shared/service-lookup.ts).
 */

setUpAppTests()

const SAVED = makeEmployees(200)
const HIRED: EmployeeRow = {
  ...SAVED[0]!,
  UUID: fakeUuid(9_000),
  firstName: 'Adaeze',
  lastName: 'Okonkwo',
  employeeNumber: '009001',
}

describe('the service lookup column', () => {
  it('is the employee number for a number typed in the default search, and names for a name', async () => {
    const { core } = renderWithCore({
      serviceEmployees: SAVED,
      hiredSinceSync: [HIRED],
      synced: true,
      signedIn: true,
    })
    await screen.findByText('200 of 200 employees')
    const box = screen.getByRole('searchbox', { name: 'Search employees' })
    fireEvent.change(box, { target: { value: '009001' } })
    expect(
      await screen.findByText(
        'Not in your saved employees. Hired since the last sync? Search the payroll service for “009001” in employee number.',
      ),
    ).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Look up on the service' }))
    const live = await screen.findByRole('region', { name: /^From the service just now/ })
    expect(within(live).getByText('Adaeze')).toBeTruthy()
    expect(core.calls.filter((call) => call.channel === 'employees:lookup-service')).toEqual([
      { channel: 'employees:lookup-service', args: [{ text: '009001', column: 'employeeNumber' }] },
    ])

    fireEvent.change(box, { target: { value: 'Okonkwo' } })
    await waitFor(() =>
      expect(
        screen.getByText(/Search the payroll service for “Okonkwo” in last name and first name\.$/),
      ).toBeTruthy(),
    )
  })
})
