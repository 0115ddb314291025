import { PolicyLockedNote, policyLockedId } from './policy-locked-note'

interface ClientSecretFieldProps {
  readonly stored: boolean
  /** The machine policy supplies the secret: "Set by your organisation", nothing to type. */
  readonly locked?: boolean
  /** What the clerk typed, held by the settings form until its Save (empty: the stored secret is kept). */
  readonly value: string
  /** Why the last Save could not store it, worded for the clerk. */
  readonly error: string | undefined
  readonly onChange: (secret: string) => void
}

/**
 * The client secret, beside the client ID in Settings → Sign-in. Write-only: saved by the form's Save through its
 * own channel to main's secret store (useSettingsForm) and never shown again, only whether one is stored.
 */
export function ClientSecretField({
  stored,
  locked = false,
  value,
  error,
  onChange,
}: ClientSecretFieldProps) {
  const describedBy = [
    locked ? policyLockedId('client-secret') : undefined,
    error === undefined ? undefined : 'client-secret-error',
    'client-secret-state',
  ]
    .filter(Boolean)
    .join(' ')
  return (
    <div className={`form-field${error === undefined ? '' : ' invalid'}${locked ? ' locked' : ''}`}>
      <label id="client-secret-label" htmlFor="client-secret">
        Client secret
      </label>
      {locked && <PolicyLockedNote id="client-secret" />}
      <input
        id="client-secret"
        type="password"
        autoComplete="off"
        value={value}
        disabled={locked}
        aria-invalid={error !== undefined}
        aria-describedby={describedBy}
        placeholder={
          locked
            ? undefined
            : stored
              ? 'Enter a new secret to replace the stored one'
              : 'Enter the client secret'
        }
        onChange={(event) => onChange(event.target.value)}
      />
      {error === undefined ? null : (
        <p id="client-secret-error" className="field-error">
          {error}
        </p>
      )}
      <p className="field-hint" id="client-secret-state">
        {locked ? 'Supplied by your organisation' : stored ? 'Stored' : 'Not stored'}
      </p>
    </div>
  )
}
