import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

describe('Help → Save diagnostics…', () => {
  it('asks the core to save once per menu click, says where the file went and shows it in its folder', async () => {
    const { core, events } = renderWithCore({
      serviceEmployees: makeEmployees(5),
      synced: true,
      signedIn: true,
    })
    await screen.findByText('5 of 5 employees')
    act(() => events.emit('app:command', 'save-diagnostics'))
    const status = await screen.findByText(/Diagnostics saved to/)
    expect(status.textContent).toBe(
      'Diagnostics saved to RosterDesk diagnostics 2026-01-01.zip. Send this file to your IT department; it holds no employee data, passwords or sign-in details.',
    )
    expect(core.calls.filter((call) => call.channel === 'diagnostics:save')).toHaveLength(1)
    fireEvent.click(screen.getByRole('button', { name: 'Show in folder' }))
    await waitFor(() =>
      expect(core.calls.filter((call) => call.channel === 'diagnostics:show-in-folder')).toHaveLength(1),
    )
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByText(/Diagnostics saved to/)).toBeNull()
  })
})
