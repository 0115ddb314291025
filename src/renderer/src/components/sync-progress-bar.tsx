import { useEffect, useState } from 'react'
import type { SyncProgress, SyncRetry } from '../../../shared/domain/sync'
import { syncProgressText } from '../format/sync-progress-text'

/**
 * Seconds until the retry main announced, counted down here: main tells each retry once, and a "retrying in
 * 8 s" that stays put for eight seconds reads like a hang. Whole seconds are counted as ticks of one timer per
 * retry, so rendering stays pure.
 */
function useRetrySecondsLeft(retry: SyncRetry | undefined): number | undefined {
  const key = retry === undefined ? undefined : `${retry.reason}:${retry.attempt}:${retry.retryInSeconds}`
  const [ticks, setTicks] = useState<{ key: string | undefined; seconds: number }>({ key, seconds: 0 })
  // A new retry (or none) starts the count again, even one that looks like an earlier one.
  if (ticks.key !== key) setTicks({ key, seconds: 0 })
  useEffect(() => {
    if (key === undefined) return undefined
    const timer = window.setInterval(
      () => setTicks((last) => (last.key === key ? { key, seconds: last.seconds + 1 } : last)),
      1000,
    )
    return () => window.clearInterval(timer)
  }, [key])
  if (retry === undefined) return undefined
  const elapsed = ticks.key === key ? ticks.seconds : 0
  return Math.max(0, retry.retryInSeconds - elapsed)
}

/** One bar for the whole run (indeterminate until its size is known) and the progress line. */
export function SyncProgressBar({ progress }: { readonly progress: SyncProgress | undefined }) {
  const secondsLeft = useRetrySecondsLeft(progress?.retry)
  const fraction = progress?.fraction
  const noAnswer = progress?.retry?.reason === 'network'
  return (
    <div className="sync-progress">
      {/* Nothing moves while no service answers: the line alone says what happens next. */}
      <progress
        aria-label="Sync progress"
        hidden={noAnswer}
        {...(fraction === undefined ? {} : { value: fraction, max: 1 })}
      />
      <span
        className={progress?.retry ? 'sync-progress-text sync-progress-retry' : 'sync-progress-text'}
        aria-live="polite"
        // No answer at all: the line names the host and the cause; the failure's full words are its tooltip.
        title={noAnswer ? progress?.retry?.cause : undefined}
      >
        {syncProgressText(progress, secondsLeft)}
      </span>
      {progress?.retry?.cause === undefined || noAnswer ? null : (
        // Why it waits, in the failure's own words (the service's short reason included), from the first retry.
        <span className="sync-progress-cause">{progress.retry.cause}</span>
      )}
    </div>
  )
}
