interface SignInWaitingProps {
  readonly onCancel: () => void
  /** Set when saved employees are on screen: the card then sits above them as a strip and says they stay usable. */
  readonly besideData?: boolean
}

/**
 * "Waiting for you to approve RosterDesk in your browser…" with Cancel: the sign-in screen's middle, and, once
 * employees are saved, a strip in the page's flow above them, so signing in again never hides or blocks them.
 */
export function SignInWaiting({ onCancel, besideData = false }: SignInWaitingProps) {
  const waiting = (
    <div className="waiting" role="status">
      <span className="spinner" aria-hidden="true" />
      <p>
        Waiting for you to approve RosterDesk in your browser…
        {besideData ? <span className="muted"> Your saved employees stay available meanwhile.</span> : null}
      </p>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  )
  if (!besideData) return waiting
  return (
    <section className="banner sign-in-strip" aria-label="Signing in">
      {waiting}
    </section>
  )
}
