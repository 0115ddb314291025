import type { PayCyclesState } from '../hooks/use-pay-cycles'
import { plural } from '../format/format-value'
import { FieldMessages, fieldDescribedBy } from './field-messages'

interface TrackedPayCyclesFieldProps {
  readonly id: string
  /** The ids ticked now, in the order they are saved. */
  readonly tracked: readonly string[]
  readonly payCycles: PayCyclesState
  readonly error: string | undefined
  readonly onChange: (tracked: string[]) => void
}

/**
 * Tracked pay cycles, chosen from the data rather than typed: one box per pay cycle the saved employees belong to,
 * with its size, and below them any tracked id the saved employees no longer have, still ticked so the clerk can
 * untick it (a typo from an older release, or a pay cycle that has ended).
 */
export function TrackedPayCyclesField({
  id,
  tracked,
  payCycles,
  error,
  onChange,
}: TrackedPayCyclesFieldProps) {
  const hint = (
    <>
      Each sync also reads a tracked pay cycle’s own list from the service, so its roster holds everyone the
      service counts in it. Tracked pay cycles are listed first when you export a roster.
    </>
  )
  const present = payCycles.status === 'ready' ? payCycles.payCycles : []
  const presentIds = new Set(present.map((cycle) => cycle.value))
  // Until the data has answered nothing is listed; if it cannot answer, the tracked ids still can be unticked.
  const missing = payCycles.status === 'loading' ? [] : tracked.filter((cycle) => !presentIds.has(cycle))
  const missingNote = payCycles.status === 'ready' ? 'not in the saved employees' : 'tracked'
  const choices = [
    ...[...present]
      .sort((a, b) => a.value.localeCompare(b.value))
      .map((cycle) => ({ value: cycle.value, note: plural(cycle.count, 'employee'), missing: false })),
    ...missing.map((value) => ({ value, note: missingNote, missing: true })),
  ]
  // Saved in the order shown, so ticking and unticking the same box leaves nothing to save.
  const toggle = (value: string, on: boolean): void =>
    onChange(
      choices
        .map((choice) => choice.value)
        .filter((choice) => (choice === value ? on : tracked.includes(choice))),
    )

  return (
    <fieldset
      id={id}
      tabIndex={-1}
      className={`pay-cycle-choices${error ? ' invalid' : ''}`}
      aria-describedby={fieldDescribedBy(id, error, hint)}
    >
      <legend>Tracked pay cycles</legend>
      {payCycles.status === 'loading' && (
        <p className="muted">Reading the pay cycles of the saved employees…</p>
      )}
      {payCycles.status === 'failed' && <p role="alert">{payCycles.message}</p>}
      {payCycles.status === 'ready' && choices.length === 0 && (
        <p className="muted">No saved employee belongs to a pay cycle yet. Sync, then choose here.</p>
      )}
      {choices.map((choice) => (
        <label key={choice.value} className={choice.missing ? 'pay-cycle-missing' : undefined}>
          <input
            type="checkbox"
            checked={tracked.includes(choice.value)}
            aria-invalid={error !== undefined}
            onChange={(event) => toggle(choice.value, event.target.checked)}
          />
          <span>
            {choice.value} <span className="muted">({choice.note})</span>
          </span>
        </label>
      ))}
      <FieldMessages id={id} error={error} hint={hint} />
    </fieldset>
  )
}
