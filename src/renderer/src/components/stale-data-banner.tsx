import { isDataStale } from '../../../shared/freshness'
import { formatRelativeTime, formatSyncMoment } from '../format/relative-time'
import { useNow } from '../hooks/use-now'

interface StaleDataBannerProps {
  /** When the last complete sync ended (its summary's `endedAt`); undefined when the cache was never synced. */
  readonly syncedAt: string | undefined
  /** The clerk's threshold from Settings. */
  readonly staleAfterHours: number
  readonly signedIn: boolean
  readonly running: boolean
  readonly onSyncNow: () => void
  readonly onSignIn: () => void
}

/**
 * A banner that cannot be missed once the saved employees are older than the clerk's threshold: how old they are,
 * when exactly they were synced, and the one button that fixes it. It re-reads the time every 30 seconds (useNow),
 * so it appears while the app sits open, and goes as soon as a sync completes.
 */
export function StaleDataBanner(props: StaleDataBannerProps) {
  const now = useNow()
  const { syncedAt } = props
  if (syncedAt === undefined || !isDataStale(syncedAt, now, props.staleAfterHours)) return null
  return (
    <section className="banner banner-warning stale-banner" aria-label="Data age">
      <p>
        <strong>
          Employees last synced {formatRelativeTime(syncedAt, now)} ({formatSyncMoment(syncedAt, now)})
        </strong>
        <span className="stale-banner-detail">
          {props.running ? 'A sync is under way.' : 'Sync to see changes made since.'}
        </span>
      </p>
      {props.running ? null : props.signedIn ? (
        <button type="button" className="primary" onClick={props.onSyncNow}>
          Sync now
        </button>
      ) : (
        <button type="button" className="primary" onClick={props.onSignIn}>
          Sign in to sync
        </button>
      )}
    </section>
  )
}
