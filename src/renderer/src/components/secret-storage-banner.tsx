/**
 * Shown when the OS offers no secure store, so secrets last only until RosterDesk quits; with
 * `savedEmployeesUntilQuit`, the saved employees' key too (no key file allowed), so they are synced again.
 */
export function SecretStorageBanner({
  savedEmployeesUntilQuit = false,
}: {
  savedEmployeesUntilQuit?: boolean
}) {
  return (
    // A labelled region, so this warning beside the header is inside a landmark like the rest of the page.
    <section className="banner banner-warning" aria-label="Password storage">
      This computer offers no secure password store: you will need to sign in again each time RosterDesk
      starts.
      {savedEmployeesUntilQuit
        ? ' The saved employees are kept only until RosterDesk quits, so each start syncs them again.'
        : null}
    </section>
  )
}
