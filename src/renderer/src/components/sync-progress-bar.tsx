import type { SyncProgress } from '../../../shared/domain'
import { formatCount } from '../format/format-value'

const PHASES: Record<SyncProgress['phase'], string> = {
  listing: 'Downloading employees',
  reconciling: 'Checking for changes',
  'pay-cycles': 'Reading pay cycles',
  committing: 'Saving',
}

/** Rows per second while downloading, so a clerk can tell a slow service from a stuck sync. */
function rate(progress: SyncProgress): string {
  if (progress.phase === 'committing' || progress.rowsPerSecond <= 0) return ''
  return ` (${formatCount(Math.round(progress.rowsPerSecond))} rows/s)`
}

/** Pages and rows of a running sync; indeterminate until main knows how many pages there are. */
export function SyncProgressBar({ progress }: { readonly progress: SyncProgress | undefined }) {
  const known = progress !== undefined && progress.pagesTotal > 0
  const text = progress
    ? `${PHASES[progress.phase]}: page ${formatCount(progress.pagesDone)}${known ? ` of ${formatCount(progress.pagesTotal)}` : ''}, ${formatCount(progress.rows)} rows${rate(progress)}`
    : 'Starting sync…'
  return (
    <div className="sync-progress">
      <progress
        aria-label="Sync progress"
        {...(known ? { value: progress.pagesDone, max: progress.pagesTotal } : {})}
      />
      <span className="sync-progress-text" aria-live="polite">
        {text}
      </span>
    </div>
  )
}
