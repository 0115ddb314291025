import { useState, type FormEvent } from 'react'
import { errorMessage } from '../api/client'
import { PolicyLockedNote, policyLockedId } from './policy-locked-note'

interface ClientSecretFieldProps {
  readonly stored: boolean
  /** The machine policy supplies the secret: "Set by your organisation", nothing to type. */
  readonly locked?: boolean
  readonly onSave: (secret: string) => Promise<unknown>
}

/** Write-only: the secret goes to main's secret store and is never shown again, only whether one is stored. */
export function ClientSecretField({ stored, locked = false, onSave }: ClientSecretFieldProps) {
  const [secret, setSecret] = useState('')
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string }>()
  const [saving, setSaving] = useState(false)

  const submit = (event: FormEvent): void => {
    event.preventDefault()
    if (secret.trim() === '') {
      setMessage({ tone: 'error', text: 'Enter the client secret your IT team gave you.' })
      return
    }
    setSaving(true)
    onSave(secret)
      .then(() => {
        setSecret('')
        setMessage({ tone: 'ok', text: 'Client secret saved.' })
      })
      .catch((error: unknown) => setMessage({ tone: 'error', text: errorMessage(error) }))
      .finally(() => setSaving(false))
  }

  return (
    <form className="secret-form" onSubmit={submit} aria-label="Store client secret">
      <div className="form-field">
        <label id="client-secret-label" htmlFor="client-secret">
          Client secret
        </label>
        {locked && <PolicyLockedNote id="client-secret" />}
        <p className="secret-state" id="client-secret-state">
          {locked ? 'Supplied by your organisation' : stored ? 'Stored' : 'Not stored'}
        </p>
        <div className="inline-controls">
          <input
            id="client-secret"
            type="password"
            autoComplete="off"
            value={secret}
            disabled={locked}
            aria-describedby={
              locked ? `${policyLockedId('client-secret')} client-secret-state` : 'client-secret-state'
            }
            placeholder={
              locked
                ? undefined
                : stored
                  ? 'Enter a new secret to replace the stored one'
                  : 'Enter the client secret'
            }
            onChange={(event) => setSecret(event.target.value)}
          />
          <button type="submit" disabled={saving || locked}>
            Save secret
          </button>
        </div>
        {message ? (
          <p
            className={message.tone === 'error' ? 'field-error' : 'field-ok'}
            role={message.tone === 'error' ? 'alert' : 'status'}
          >
            {message.text}
          </p>
        ) : null}
      </div>
    </form>
  )
}
