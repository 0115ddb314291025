import type { UpdatesController } from '../hooks/use-updates'

/**
 * The updater in the window (issue 25): a quiet banner once an update is downloaded and verified, with the one
 * button that installs it, and why it must wait when main refuses (a sync, an export or a print running); a
 * failed check or download is a muted line, never an error. Every other state shows nothing here (Help → About
 * has them all).
 */
export function UpdateBanner({ updates }: { readonly updates: UpdatesController }) {
  const state = updates.state
  if (state?.status === 'ready') {
    return (
      <section className="banner update-banner" aria-label="Update">
        <p>
          <strong>RosterDesk {state.version} is ready to install.</strong>
          {updates.waitReason === undefined ? null : (
            <span className="update-banner-wait" role="status">
              {updates.waitReason}
            </span>
          )}
        </p>
        <button type="button" className="primary" disabled={updates.restarting} onClick={updates.restart}>
          {updates.restarting ? 'Restarting…' : 'Restart to update'}
        </button>
      </section>
    )
  }
  if (state?.status === 'failed') {
    return (
      <p className="update-note" role="status">
        Updates: {state.message}. RosterDesk tries again later.
      </p>
    )
  }
  return null
}
