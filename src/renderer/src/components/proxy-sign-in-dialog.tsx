import { useCallback, useId, useRef, useState, type FormEvent } from 'react'
import type { ProxySignInAnswer, ProxySignInRequest } from '../../../shared/connection-report'
import { errorMessage } from '../api/client'
import { plural } from '../format/format-value'
import { useProxySignIn } from '../hooks/use-proxy-sign-in'
import { CheckboxField } from './checkbox-field'
import { FormField } from './form-field'
import { ModalDialog } from './modal-dialog'

/** The words under the heading when the proxy turned down what was given for it a moment ago. */
export const PROXY_RETRY_TEXT = 'The proxy refused the user name or password given.'

/** The schemes in which the proxy wants the Windows sign-in, where a domain may belong in the user name. */
const WINDOWS_SCHEMES = new Set(['ntlm', 'negotiate'])

/**
 * Asks the clerk for a proxy's sign-in whenever main meets a proxy's challenge (`network:proxy-sign-in`), one
 * request at a time; a profile switch does not drop a waiting one (it lives beside the profile's workspace).
 */
export function ProxySignIn() {
  const { current, waiting, answer } = useProxySignIn()
  if (current === undefined) return null
  // Keyed by the request, so each starts with empty fields and takes the focus again.
  return <ProxySignInDialog key={current.id} request={current} waiting={waiting} onAnswer={answer} />
}

interface ProxySignInDialogProps {
  readonly request: ProxySignInRequest
  /** How many requests wait after this one. */
  readonly waiting: number
  onAnswer(id: string, answer: ProxySignInAnswer): Promise<void>
}

/**
 * "The proxy proxy.corp.example:8080 asks you to sign in": the proxy's realm in its own words, a second line when
 * the last credentials were refused, user name, password and "Remember on this computer". Sign in (or Enter)
 * answers with them; Cancel (or Esc) answers null, and the request that met the challenge fails with the
 * proxy's message. The app's own modal dialog: focus starts in the user name and stays inside.
 */
function ProxySignInDialog({ request, waiting, onAnswer }: ProxySignInDialogProps) {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [remember, setRemember] = useState(false)
  const [usernameProblem, setUsernameProblem] = useState<string>()
  const [failure, setFailure] = useState<string>()
  const [sending, setSending] = useState(false)
  const sendingRef = useRef(false)
  const descriptionId = useId()

  const send = useCallback(
    (answer: ProxySignInAnswer): void => {
      if (sendingRef.current) return
      sendingRef.current = true
      setSending(true)
      setFailure(undefined)
      onAnswer(request.id, answer).catch((error: unknown) => {
        // Main did not get the answer: the dialog stays, to answer again or cancel.
        sendingRef.current = false
        setSending(false)
        setFailure(errorMessage(error))
      })
    },
    [onAnswer, request.id],
  )
  const cancel = useCallback(() => send(null), [send])
  const submit = (event: FormEvent): void => {
    event.preventDefault()
    if (username.trim() === '') {
      setUsernameProblem('Enter the user name for this proxy.')
      document.getElementById('proxy-sign-in-username')?.focus()
      return
    }
    send({ username, password, remember })
  }

  const windows = WINDOWS_SCHEMES.has(request.scheme.toLowerCase())
  return (
    <ModalDialog
      title={`The proxy ${request.proxy} asks you to sign in`}
      className="proxy-sign-in-dialog"
      onClose={cancel}
      describedBy={descriptionId}
    >
      <div id={descriptionId} className="proxy-sign-in-about">
        {request.retry && <p className="message-warning">{PROXY_RETRY_TEXT}</p>}
        {request.realm !== '' && (
          <p>
            The proxy says: “<bdi>{request.realm}</bdi>”
          </p>
        )}
        <p className="muted">
          Your company’s network asks for this before RosterDesk can reach the payroll service. It is not your
          payroll service sign-in.
        </p>
      </div>
      <form onSubmit={submit} noValidate>
        <FormField
          id="proxy-sign-in-username"
          label="User name"
          error={usernameProblem}
          hint={windows ? 'Your Windows sign-in; with its domain if IT says so, as DOMAIN\\name.' : undefined}
        >
          {(describedBy, invalid) => (
            <input
              id="proxy-sign-in-username"
              type="text"
              data-autofocus
              autoComplete="username"
              spellCheck={false}
              maxLength={256}
              value={username}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(event) => {
                setUsername(event.target.value)
                setUsernameProblem(undefined)
              }}
            />
          )}
        </FormField>
        <FormField id="proxy-sign-in-password" label="Password" error={undefined}>
          {(describedBy) => (
            <input
              id="proxy-sign-in-password"
              type="password"
              autoComplete="current-password"
              maxLength={1024}
              value={password}
              aria-describedby={describedBy}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </FormField>
        <CheckboxField
          id="proxy-sign-in-remember"
          label="Remember on this computer"
          checked={remember}
          error={undefined}
          hint="Kept encrypted for this proxy; Settings → Network can forget it."
          onChange={setRemember}
        />
        {failure !== undefined && (
          <p className="field-error" role="alert">
            {failure}
          </p>
        )}
        {waiting > 0 && (
          <p className="muted">
            {plural(waiting, 'more proxy request')} {waiting === 1 ? 'waits' : 'wait'} after this one.
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={cancel} disabled={sending}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={sending}>
            Sign in
          </button>
        </div>
      </form>
    </ModalDialog>
  )
}
