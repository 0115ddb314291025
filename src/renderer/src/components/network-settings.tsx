import { useEffect, useRef, useState } from 'react'
import type { SettingsView } from '../../../shared/domain/settings'
import { PROXY_MODES, PROXY_MODE_LABELS, type ProxyMode } from '../../../shared/settings-rules'
import { errorMessage } from '../api/client'
import type { SettingsFormController } from '../hooks/use-settings-form'
import type { LockableFormField, SettingsForm, SettingsFormErrors } from '../settings/settings-form'
import { NETWORK_FIELDS_OF_MODE } from '../settings/settings-form'
import { ConnectionCheck } from './connection-check'
import { FieldMessages, fieldDescribedBy } from './field-messages'
import { FormTextSetting, type TextFormField } from './text-setting'
import { PolicyLockedNote } from './policy-locked-note'

/** What Settings → Network does at once, outside the form's Save (each answers the new settings view). */
export interface NetworkActions {
  chooseCertificates(): Promise<SettingsView>
  removeCertificates(): Promise<SettingsView>
  forgetProxyPassword(proxy: string): Promise<SettingsView>
}

interface NetworkSettingsProps {
  readonly form: SettingsForm
  readonly errors: SettingsFormErrors
  readonly change: SettingsFormController['change']
  readonly rememberedProxies: readonly string[]
  /** The form holds changes not saved yet: Test connection tries the saved settings. */
  readonly unsaved: boolean
  readonly actions: NetworkActions
  /** The fields the machine policy sets: shown disabled, "Set by your organisation" beside each. */
  readonly locked: ReadonlySet<LockableFormField>
}

const PROXY_HINT =
  "“Use the system's settings” follows what this computer is set to use (the proxy, PAC file or automatic detection in its network settings, usually set by IT) and signs in to the proxy with your Windows login where the proxy allows it. Choose another only when IT asks you to."

/**
 * Settings → Network: how RosterDesk reaches the service (the proxy choice and what each choice needs), the extra
 * certificates it trusts, the proxy sign-ins it remembers, and "Test connection". The proxy fields are part of
 * the settings form (saved with it, their messages under them); the certificate file and the remembered sign-ins
 * change at once, through main.
 */
export function NetworkSettings({
  form,
  errors,
  change,
  rememberedProxies,
  unsaved,
  actions,
  locked,
}: NetworkSettingsProps) {
  const shown = new Set(NETWORK_FIELDS_OF_MODE[form.proxyMode])
  const text = (field: TextFormField, label: string, hint: string) => (
    <FormTextSetting binding={{ form, errors, locked, change }} field={field} label={label} hint={hint} />
  )
  return (
    <fieldset>
      <legend>Network</legend>
      <ProxyModeField
        value={form.proxyMode}
        error={errors.proxyMode}
        locked={locked.has('proxyMode')}
        onChange={(mode) => change('proxyMode', mode)}
      />
      {shown.has('proxyUrl') &&
        text(
          'proxyUrl',
          'Proxy address',
          'For example http://proxy.example.com:8080, without a user name or password: RosterDesk asks for them when the proxy does.',
        )}
      {shown.has('proxyBypass') &&
        text(
          'proxyBypass',
          'Bypass the proxy for',
          'Addresses reached directly, separated by commas, for example *.corp.example, 10.0.0.0/8, <local>. Leave empty to send everything through the proxy.',
        )}
      {shown.has('pacUrl') &&
        text(
          'pacUrl',
          'PAC file address',
          'The address IT gives you, for example http://wpad.example.com/proxy.pac.',
        )}
      <CertificatesField
        file={form.extraCertificatesFile}
        error={errors.extraCertificatesFile}
        locked={locked.has('extraCertificatesFile')}
        onChoose={actions.chooseCertificates}
        onRemove={actions.removeCertificates}
      />
      <RememberedProxies proxies={rememberedProxies} onForget={actions.forgetProxyPassword} />
      <ConnectionCheck unsaved={unsaved} />
    </fieldset>
  )
}

interface ProxyModeFieldProps {
  readonly value: ProxyMode
  readonly error: string | undefined
  readonly locked: boolean
  onChange(mode: ProxyMode): void
}

/** The proxy choice: one radio button per mode, in PROXY_MODE_LABELS' words. */
function ProxyModeField({ value, error, locked, onChange }: ProxyModeFieldProps) {
  const id = 'setting-proxyMode'
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      className={`choice-group${error ? ' invalid' : ''}${locked ? ' locked' : ''}`}
      aria-describedby={fieldDescribedBy(id, error, PROXY_HINT, locked)}
      disabled={locked}
    >
      <legend>Proxy</legend>
      {locked && <PolicyLockedNote id={id} />}
      {PROXY_MODES.map((mode) => (
        <label key={mode} className="radio">
          <input
            type="radio"
            name="setting-proxyMode"
            value={mode}
            checked={value === mode}
            disabled={locked}
            onChange={() => onChange(mode)}
          />
          <span>{PROXY_MODE_LABELS[mode]}</span>
        </label>
      ))}
      <FieldMessages id={id} error={error} hint={PROXY_HINT} />
    </fieldset>
  )
}

type Message = { readonly tone: 'ok' | 'error'; readonly text: string } | undefined

interface CertificatesFieldProps {
  /** The saved file's name (main never tells the window its path); '' for none. */
  readonly file: string
  /** Main's message about the saved path, from the form's save. */
  readonly error: string | undefined
  /** The machine policy sets the file: "Set by your organisation", no Choose file… or Remove. */
  readonly locked: boolean
  onChoose(): Promise<SettingsView>
  onRemove(): Promise<SettingsView>
}

/**
 * "Extra trusted certificates": the chosen file's name (or None), "Choose file…" (main's open dialog, which
 * checks the file is local and holds certificates) and "Remove"; what each did, or why it could not, said under
 * them.
 */
function CertificatesField({ file, error, locked, onChoose, onRemove }: CertificatesFieldProps) {
  const id = 'setting-extraCertificatesFile'
  const [message, setMessage] = useState<Message>()
  const [busy, setBusy] = useState(false)
  const chooseRef = useRef<HTMLButtonElement>(null)
  const shownError = message?.tone === 'error' ? message.text : error
  const hint =
    'Only when IT gives you a certificate file (.pem): companies that inspect secure connections must have RosterDesk trust their certificate, which IT usually installs on the computer instead. RosterDesk trusts the file in addition to the computer’s own certificates.'
  const act = (action: () => Promise<SettingsView>, done: (view: SettingsView) => Message): void => {
    setBusy(true)
    setMessage(undefined)
    action()
      .then((view) => setMessage(done(view)))
      .catch((failure: unknown) => setMessage({ tone: 'error', text: errorMessage(failure) }))
      .finally(() => setBusy(false))
  }
  const choose = (): void =>
    act(onChoose, (view) =>
      view.settings.extraCertificatesFile === file
        ? undefined
        : { tone: 'ok', text: 'Saved: RosterDesk trusts the certificates in this file.' },
    )
  // After Remove, whose button is then gone, the focus stays in the field: on Choose file…, once enabled again.
  const focusChoose = useRef(false)
  useEffect(() => {
    if (busy || !focusChoose.current) return
    focusChoose.current = false
    chooseRef.current?.focus()
  }, [busy])
  const remove = (): void =>
    act(onRemove, () => {
      focusChoose.current = true
      return { tone: 'ok', text: 'Removed: RosterDesk trusts the computer’s own certificates only.' }
    })
  return (
    <div
      className={`form-field certificate-field${shownError ? ' invalid' : ''}`}
      role="group"
      aria-labelledby={`${id}-label`}
    >
      <span id={`${id}-label`} className="field-label">
        Extra trusted certificates
      </span>
      {locked && <PolicyLockedNote id={id} />}
      <p
        id={id}
        className="certificate-file"
        tabIndex={-1}
        aria-describedby={fieldDescribedBy(id, shownError, hint, locked)}
      >
        {file === '' ? 'None' : <bdi>{file}</bdi>}
      </p>
      {!locked && (
        <div className="inline-controls">
          <button type="button" ref={chooseRef} onClick={choose} disabled={busy}>
            Choose file…
          </button>
          {file !== '' && (
            <button type="button" onClick={remove} disabled={busy}>
              Remove
            </button>
          )}
        </div>
      )}
      {message?.tone === 'ok' ? (
        <p className="field-ok" role="status">
          {message.text}
        </p>
      ) : null}
      <FieldMessages id={id} error={shownError} hint={hint} />
    </div>
  )
}

interface RememberedProxiesProps {
  readonly proxies: readonly string[]
  onForget(proxy: string): Promise<SettingsView>
}

/** The proxies whose sign-in RosterDesk keeps (encrypted by the OS), each with Forget; or a line saying none. */
function RememberedProxies({ proxies, onForget }: RememberedProxiesProps) {
  const [message, setMessage] = useState<Message>()
  const groupRef = useRef<HTMLDivElement>(null)
  // Counts forgets done; the settings view (with the shorter list) was set before each.
  const [forgotten, setForgotten] = useState(0)
  // Once the list without the forgotten proxy is on screen, the pressed button is gone: the focus goes to the
  // first Forget left, else to the group itself.
  useEffect(() => {
    if (forgotten === 0) return
    const group = groupRef.current
    ;(group?.querySelector<HTMLElement>('button') ?? group)?.focus()
  }, [forgotten])
  const forget = (proxy: string): void => {
    setMessage(undefined)
    onForget(proxy)
      .then(() => {
        setForgotten((count) => count + 1)
        setMessage({ tone: 'ok', text: `Forgot the sign-in for ${proxy}.` })
      })
      .catch((failure: unknown) => setMessage({ tone: 'error', text: errorMessage(failure) }))
  }
  return (
    <div
      className="form-field remembered-proxies"
      role="group"
      aria-labelledby="remembered-proxies-label"
      aria-describedby="remembered-proxies-hint"
      tabIndex={-1}
      ref={groupRef}
    >
      <span id="remembered-proxies-label" className="field-label">
        Remembered proxy sign-ins
      </span>
      {proxies.length === 0 ? (
        <p className="muted">No proxy sign-in is remembered on this computer.</p>
      ) : (
        <ul>
          {proxies.map((proxy) => (
            <li key={proxy}>
              <bdi>{proxy}</bdi>
              <button type="button" aria-label={`Forget ${proxy}`} onClick={() => forget(proxy)}>
                Forget
              </button>
            </li>
          ))}
        </ul>
      )}
      {message !== undefined && (
        <p
          className={message.tone === 'error' ? 'field-error' : 'field-ok'}
          role={message.tone === 'error' ? 'alert' : 'status'}
        >
          {message.text}
        </p>
      )}
      <p id="remembered-proxies-hint" className="field-hint">
        User names and passwords you asked RosterDesk to remember when a proxy asked for them, kept encrypted
        on this computer. Forget one when its password changes.
      </p>
    </div>
  )
}
