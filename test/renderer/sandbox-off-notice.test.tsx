import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { SANDBOX_OFF_NOTICE } from '../../src/renderer/src/components/sandbox-off-banner'
import { renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

/** Issue 31, point 7: a run without Chromium's sandbox (an AppImage's `--no-sandbox`) is said in the window. */
describe('the sandbox-off notice', () => {
  it('is shown, in a labelled region, when main reports the sandbox off', async () => {
    renderWithCore({ serviceEmployees: [], sandboxOff: true })
    const notice = await screen.findByRole('region', { name: 'Security warning' })
    expect(notice.textContent).toBe(SANDBOX_OFF_NOTICE)
    expect(SANDBOX_OFF_NOTICE).toContain('--no-sandbox')
  })

  it('is absent otherwise', async () => {
    renderWithCore({ serviceEmployees: [] })
    await screen.findByRole('button', { name: 'Settings' })
    expect(screen.queryByRole('region', { name: 'Security warning' })).toBeNull()
  })
})
