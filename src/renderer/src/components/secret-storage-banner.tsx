/** Shown when the OS offers no secure store, so secrets last only until RosterDesk quits. */
export function SecretStorageBanner() {
  return (
    <div className="banner banner-warning" role="note">
      This computer offers no secure password store: you will need to sign in again each time RosterDesk
      starts.
    </div>
  )
}
