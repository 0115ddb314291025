/** Shown when the OS offers no secure store, so secrets last only until RosterDesk quits. */
export function SecretStorageBanner() {
  return (
    // A labelled region, so this warning beside the header is inside a landmark like the rest of the page.
    <section className="banner banner-warning" aria-label="Password storage">
      This computer offers no secure password store: you will need to sign in again each time RosterDesk
      starts.
    </section>
  )
}
