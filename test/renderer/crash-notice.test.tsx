import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { crashNoticeText } from '../../src/renderer/src/components/crash-notice'
import { renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

/** Issue 35, point 1: after a crash, the next start tells the clerk once, without alarm. */
describe('the crash notice', () => {
  it('says when RosterDesk closed, that the saved employees are safe, and what to save for IT; Dismiss keeps it away', async () => {
    const crashedAt = new Date(Date.now() - 60 * 60 * 1000)
    const rendered = renderWithCore({ serviceEmployees: [], crashedAt: crashedAt.toISOString() })
    const notice = await screen.findByRole('region', { name: 'RosterDesk closed unexpectedly' })
    const weekday = new Intl.DateTimeFormat('en', { weekday: 'long' }).format(crashedAt)
    expect(notice.textContent).toContain(`RosterDesk closed unexpectedly on ${weekday} at `)
    expect(notice.textContent).toContain('Your saved employees are safe. Save diagnostics for IT')
    // Its button runs Help → Save diagnostics…: the same save, and the same line saying where the file went.
    const { core } = rendered
    fireEvent.click(within(notice).getByRole('button', { name: 'Save diagnostics…' }))
    await waitFor(() => expect(core.calls.some((call) => call.channel === 'diagnostics:save')).toBe(true))
    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByRole('region', { name: 'RosterDesk closed unexpectedly' })).toBeNull()
  })

  it('is absent when nothing crashed', async () => {
    renderWithCore({ serviceEmployees: [] })
    await screen.findByRole('button', { name: 'Settings' })
    expect(screen.queryByRole('region', { name: 'RosterDesk closed unexpectedly' })).toBeNull()
  })

  it('names the weekday and the clock, and the day too when it is over six days ago', () => {
    const monday = new Date(2026, 11, 7, 9, 12)
    expect(crashNoticeText(monday, new Date(2026, 11, 7, 10, 0), 'de-DE')).toBe(
      'RosterDesk closed unexpectedly on Monday at 09:12. Your saved employees are safe. Save diagnostics for IT.',
    )
    expect(crashNoticeText(monday, new Date(2026, 11, 15, 10, 0), 'de-DE')).toContain(
      'on Monday 7.12. at 09:12.',
    )
  })
})
