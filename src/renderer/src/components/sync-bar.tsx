import { rowSourceLabel } from '../../../shared/source-identity'
import { numbersAsTextText, shortenedValuesText } from '../../../shared/shortened-values'
import type { SyncController } from '../hooks/use-sync'
import { useNow } from '../hooks/use-now'
import { formatDateTime, formatRelativeTime } from '../format/relative-time'
import { ChangeReportView } from './change-report-view'
import { SyncProgressBar } from './sync-progress-bar'

interface SyncBarProps {
  readonly sync: SyncController
  readonly signedIn: boolean
  /** While the browser sign-in is under way its own card (SignInWaiting) has the one button, Cancel. */
  readonly signingIn?: boolean
  readonly onSignIn: () => void
  readonly authError: string | undefined
}

/** Last sync time, the Sync button (or progress and Cancel while it runs) and what the last sync changed. */
export function SyncBar({ sync, signedIn, signingIn = false, onSignIn, authError }: SyncBarProps) {
  const now = useNow()
  const last = sync.status?.lastComplete
  // A lost sign-in is one piece of news, however it reached the screen: the session's end ("Your sign-in has
  // expired") and a sync that then found no sign-in ("You are not signed in") are said once, by the session's words.
  const signInLost = authError !== undefined && !signedIn
  const syncProblem =
    sync.problem && !sync.running && !(signInLost && sync.problem.code === 'not-signed-in')
      ? sync.problem
      : undefined
  // What the last sync changed is said only while that sync is the latest: after a run that failed or was
  // cancelled (or a sync that could not start), "No changes in the last sync" would be about a sync that did not
  // happen.
  const lastRun = sync.status?.lastRun
  // While a run waits on a service that does not answer, its line (host, cause, next attempt) takes the room of
  // "Employees from …", which the count above the table still says: the bar keeps one line at 1366 px.
  const waitingForNoAnswer = sync.running && sync.progress?.retry?.reason === 'network'
  const lastIsLatest = last !== undefined && (lastRun === undefined || lastRun.id === last.id)
  return (
    <section className="sync-bar" aria-label="Sync">
      <span className="last-sync">
        {last ? (
          <>
            Last synced{' '}
            <time dateTime={last.endedAt} title={formatDateTime(last.endedAt)}>
              {formatRelativeTime(last.endedAt, now)}
            </time>
          </>
        ) : (
          'Never synced'
        )}
      </span>
      {last && sync.status?.source && !waitingForNoAnswer ? (
        // Whose rows the grid, the chip and an export hold: their run's source, not the profile's setting.
        <span className="muted data-source">
          Employees from <bdi>{rowSourceLabel(sync.status.source)}</bdi>
        </span>
      ) : null}
      {sync.running ? (
        <>
          <SyncProgressBar progress={sync.progress} />
          <button type="button" onClick={sync.cancel}>
            Cancel sync
          </button>
        </>
      ) : signedIn ? (
        <button type="button" className="primary" onClick={sync.start}>
          Sync
        </button>
      ) : signingIn ? null : (
        <button type="button" className="primary" onClick={onSignIn}>
          Sign in to sync
        </button>
      )}
      {!sync.running && lastIsLatest && syncProblem === undefined && last?.changes ? (
        <ChangeReportView
          report={last.changes}
          dataVersion={sync.dataVersion}
          {...(sync.status?.source === undefined ? {} : { source: rowSourceLabel(sync.status.source) })}
        />
      ) : null}
      {!sync.running && last?.truncatedFields ? (
        // About the saved employees, so it stays until a sync replaces them; the log's warning says the limit.
        <span className="muted shortened-values">
          {shortenedValuesText(last.truncatedFields)}; see the log (Help → Open log folder).
        </span>
      ) : null}
      {!sync.running && (last?.numbersTooLarge || last?.numbersTooSmall) ? (
        // Numbers beyond a double's range, kept as the service wrote them (decision 052).
        <span className="muted numbers-as-text">
          {numbersAsTextText(last.numbersTooLarge, last.numbersTooSmall)}
        </span>
      ) : null}
      {syncProblem ? (
        <span className="message message-error inline" role="alert">
          {syncProblem.message}
        </span>
      ) : null}
      {sync.cancelled && !sync.running ? (
        <span className="muted">Sync cancelled; the saved employees are unchanged.</span>
      ) : null}
      {signInLost && authError !== syncProblem?.message ? (
        <span className="message message-error inline" role="alert">
          {authError}
        </span>
      ) : null}
    </section>
  )
}
