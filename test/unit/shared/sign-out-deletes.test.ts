import { describe, expect, it } from 'vitest'
import { signOutDeletedNotice, signOutDeletesQuestion } from '../../../src/shared/policy-view'

/** What Sign out says under `personalData.clearOnSignOut`: saved employees, set-aside ones, or both. */
describe('the sign-out question and notice', () => {
  it('names the saved employees, those set aside, or both', () => {
    expect(signOutDeletesQuestion({ saved: 1200, setAside: 0 }, 'Acme', 'en-US')).toBe(
      'Signing out also deletes the 1,200 saved employees of Acme, as your organisation requires.',
    )
    expect(signOutDeletesQuestion({ saved: 0, setAside: 1 }, 'Acme', 'en-US')).toBe(
      'Signing out also deletes the 1 employee set aside from Acme, as your organisation requires.',
    )
    expect(signOutDeletesQuestion({ saved: 20, setAside: 4000 }, 'Acme', 'de-DE')).toBe(
      'Signing out also deletes the 20 saved employees of Acme and the 4.000 set aside, as your organisation requires.',
    )
    expect(signOutDeletedNotice({ saved: 0, setAside: 300 }, 'Acme', 'en-US')).toBe(
      'Signed out: the 300 employees set aside from Acme were deleted, as your organisation requires. ' +
        'Sign in and sync to see employees again.',
    )
    expect(signOutDeletedNotice({ saved: 1, setAside: 0 }, 'Acme', 'en-US')).toContain(
      'the 1 saved employee of Acme was deleted',
    )
  })
})
