import { useEffect, type ReactNode } from 'react'
import {
  DEFAULT_SYNC_SCOPE,
  ENVIRONMENTS,
  FRESHNESS_DEFAULTS,
  PAY_DISPLAY_DEFAULTS,
  PAGE_SIZE_SETTING,
  SETTINGS_LIMITS,
  SYNC_LIMITS,
  SYNC_LIMIT_NAMES,
  SYNC_LIMIT_SETTING_DEFAULTS,
  environmentLabel,
  rangeText,
  syncLimitLabel,
  type Environment,
  type SyncLimitSetting,
} from '../../../shared/settings-rules'
import type { ProfileList } from '../../../shared/domain/profiles'
import type { Settings } from '../../../shared/settings-schema'
import { settingsRowSource, type RowSource } from '../../../shared/source-identity'
import { formatCount } from '../format/format-value'
import { usePayCycles, type PayCyclesState } from '../hooks/use-pay-cycles'
import type { SettingsController } from '../hooks/use-settings'
import { useSettingsForm, type SettingsFormController } from '../hooks/use-settings-form'
import {
  lockedFormFields,
  type LockableFormField,
  type SettingsForm,
  type SettingsFormErrors,
} from '../settings/settings-form'
import { CheckboxField } from './checkbox-field'
import { ClientSecretField } from './client-secret-field'
import { EmptyState } from './empty-state'
import { FormField } from './form-field'
import { SettingsFooter, SettingsIndex, SettingsSection, useOpenAt } from './settings-layout'
import { NetworkSettings, type NetworkActions } from './network-settings'
import { ClientCertificateSettings } from './client-certificate-settings'
import { RegionalFormats } from './regional-formats'
import { FormTextSetting, type TextFormField } from './text-setting'
import { TrackedPayCyclesField } from './tracked-pay-cycles-field'

interface SettingsScreenProps {
  readonly settings: SettingsController
  /** The environment and tenant in use (the sign-in state's), which the header shows too. */
  readonly inUse: { readonly environment: Environment; readonly tenantId: string } | undefined
  /** Changes when a sync replaced the saved employees, whose pay cycles are offered for tracking. */
  readonly dataVersion: string
  /** The active profile's saved employees (a change of its source while it holds some asks how). */
  readonly savedEmployees?: number
  /** Where they came from (`sync:get-status`'s source), which that question names. */
  readonly savedSource?: RowSource | undefined
  /** The profiles, whose names and set-aside copies the confirmation of a source change speaks of. */
  readonly profiles?: ProfileList
  /** Opened at the service's fields (a new profile's, or "Enter the service address"): scrolled to, focused. */
  readonly openAt?: 'service'
  readonly onDone: () => void
}

/** Where the clerk (or IT) sets the environment, service addresses, credentials and sync options. */
export function SettingsScreen({
  settings,
  inUse,
  dataVersion,
  savedEmployees = 0,
  savedSource,
  profiles,
  openAt,
  onDone,
}: SettingsScreenProps) {
  const payCycles = usePayCycles(dataVersion)
  // Read again on each visit: a proxy sign-in remembered since (its dialog answers main, not this screen) is listed.
  const { reload } = settings
  useEffect(reload, [reload])
  if (settings.loadError) {
    return (
      <EmptyState title="Could not load the settings" tone="error">
        <p>{settings.loadError}</p>
        <button type="button" onClick={settings.reload}>
          Try again
        </button>
      </EmptyState>
    )
  }
  if (!settings.view) return <EmptyState title="Loading settings…" />
  const locked = lockedFormFields(settings.view.policy.lockedFields)
  return (
    <section className="settings card" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      {settings.view.secretStorage === 'memory-only' ? (
        <p className="muted">Secrets are kept only until RosterDesk quits on this computer.</p>
      ) : null}
      <SettingsEditor
        saved={settings.view.settings}
        rememberedProxies={settings.view.rememberedProxies}
        payCycles={payCycles}
        demoTenant={inUse?.environment === 'demo' ? inUse.tenantId : undefined}
        onSave={settings.update}
        secret={{ stored: settings.view.hasClientSecret, save: settings.setClientSecret }}
        savedEmployees={savedEmployees}
        savedSource={savedSource}
        locked={locked}
        profiles={profiles}
        network={{
          chooseCertificates: settings.chooseCertificates,
          removeCertificates: settings.removeCertificates,
          forgetProxyPassword: settings.forgetProxyPassword,
        }}
        openAt={openAt}
        onDone={onDone}
      />
    </section>
  )
}

interface SettingsEditorProps {
  readonly saved: Settings
  /** Proxies whose sign-in is remembered (Settings → Network), which the form does not hold. */
  readonly rememberedProxies: readonly string[]
  readonly payCycles: PayCyclesState
  /** Demo's own tenant when Demo is in use; undefined otherwise (the renderer knows it only from the header's state). */
  readonly demoTenant: string | undefined
  readonly onSave: SettingsController['update']
  /** Whether a client secret is stored, and how one is (its own channel, called by the form's Save). */
  readonly secret: { readonly stored: boolean; readonly save: SettingsController['setClientSecret'] }
  /** The profile's saved employees: a change of its source while it holds some asks how (decision 039). */
  readonly savedEmployees: number
  readonly savedSource: RowSource | undefined
  readonly profiles: ProfileList | undefined
  readonly network: NetworkActions
  /** The fields the machine policy sets: shown disabled, "Set by your organisation" beside each. */
  readonly locked: ReadonlySet<LockableFormField>
  readonly openAt: 'service' | undefined
  readonly onDone: () => void
}

/** The Tenant ID field's hint for Staging and Production. */
const TENANT_HINT = 'Leave empty if your organisation has a single tenant.'

const offOrOn = (on: boolean): string => (on ? 'On' : 'Off')

/** "1 to 600 seconds, 30 by default.": a sync limit's range and default as the clerk reads them. */
function limitRangeText(key: SyncLimitSetting): string {
  const unit = SYNC_LIMIT_NAMES[key].unit
  return `${rangeText(SYNC_LIMITS[key])}${unit === undefined ? '' : ` ${unit}`}, ${formatCount(SYNC_LIMIT_SETTING_DEFAULTS[key])} by default.`
}

interface PayDataSettingsProps {
  readonly form: SettingsForm
  readonly errors: SettingsFormErrors
  readonly change: SettingsFormController['change']
  /** The form's own text field, for the currency. */
  readonly currencyField: (field: 'currency', label: string, hint: string) => ReactNode
}

/**
 * How numbers and pay show: Settings → Regional formats (regional-formats.tsx), then Pay data: the currency written
 * beside amounts whose row names none, and "Hide pay".
 */
function DisplaySettings({ form, errors, change, currencyField }: PayDataSettingsProps) {
  return (
    <>
      <RegionalFormats form={form} errors={errors} change={change} />
      <fieldset>
        <legend>Pay data</legend>
        {currencyField(
          'currency',
          'Currency',
          'A three-letter code such as EUR, written beside amounts the service sends without one. Empty by default: amounts then show with no currency unless their row names one.',
        )}
        <CheckboxField
          id="setting-hidePay"
          label="Hide pay"
          checked={form.hidePay}
          error={errors.hidePay}
          hint={`${offOrOn(PAY_DISPLAY_DEFAULTS.hidePay)} by default. Leaves money columns off the screen and the printed page, as the Hide pay button above the table does; exports still hold them.`}
          onChange={(checked) => change('hidePay', checked)}
        />
      </fieldset>
    </>
  )
}

/**
 * The settings form in its sections, with the index beside it; Save settings, Done and what the last save said stay
 * in a footer at the bottom of the window (sticky) wherever the clerk is in the form.
 */
function SettingsEditor({
  saved,
  rememberedProxies,
  payCycles,
  demoTenant,
  onSave,
  secret,
  savedEmployees,
  savedSource,
  profiles,
  network,
  locked,
  openAt,
  onDone,
}: SettingsEditorProps) {
  const secretLocked = locked.has('clientSecret')
  const controller = useSettingsForm(saved, onSave, savedEmployees, secretLocked ? undefined : secret.save)
  const { form, errors, outcome, saving, unsaved, identityPending, change, submit, resolveIdentity } =
    controller
  useOpenAt(openAt, form.environment, {
    address: form.environment !== 'demo' && form[`${form.environment}Url`].trim() !== '',
    clientId: form.clientId.trim() !== '',
  })

  const text = (
    field: TextFormField,
    label: string,
    hint?: string,
    type: 'text' | 'url' | 'number' = 'text',
  ) => (
    <FormTextSetting
      binding={{ form, errors, locked, change }}
      field={field}
      label={label}
      type={type}
      {...(hint === undefined ? {} : { hint })}
    />
  )

  return (
    <div className="settings-layout">
      <SettingsIndex />
      <form className="settings-form" onSubmit={submit} noValidate>
        <SettingsSection id="service">
          <fieldset>
            <legend>Payroll service</legend>
            <EnvironmentField
              value={form.environment}
              error={errors.environment}
              locked={locked.has('environment')}
              onChange={(environment) => change('environment', environment)}
            />
            {/* Only the chosen environment's address: the other one's is kept as saved, for when it is chosen. */}
            {form.environment === 'staging' &&
              text('stagingUrl', 'Staging address', 'For example https://staging.payroll.example.com', 'url')}
            {form.environment === 'production' &&
              text('productionUrl', 'Production address', 'For example https://payroll.example.com', 'url')}
            <TenantField demo={form.environment === 'demo'} demoTenant={demoTenant}>
              {text('tenantId', 'Tenant ID', TENANT_HINT)}
            </TenantField>
          </fieldset>
          <fieldset>
            <legend>Sign-in</legend>
            {text('clientId', 'Client ID')}
            <ClientSecretField
              stored={secret.stored}
              locked={secretLocked}
              value={controller.secret}
              error={controller.secretError}
              onChange={controller.changeSecret}
            />
            {text('redirectUri', 'Redirect URI', 'Must match the address registered for RosterDesk.')}
            {text('scopes', 'Scopes', 'Separated by spaces or commas, for example: read')}
          </fieldset>
        </SettingsSection>
        <SettingsSection id="sync">
          <SyncSettings
            form={form}
            errors={errors}
            change={change}
            payCycles={payCycles}
            locked={locked}
            text={text}
          />
        </SettingsSection>
        <SettingsSection id="display">
          <DisplaySettings form={form} errors={errors} change={change} currencyField={text} />
        </SettingsSection>
        <SettingsSection id="network">
          <NetworkSettings
            form={form}
            errors={errors}
            change={change}
            rememberedProxies={rememberedProxies}
            unsaved={unsaved}
            actions={network}
            locked={locked}
          />
          <ClientCertificateSettings form={form} errors={errors} change={change} locked={locked} />
        </SettingsSection>
        <SettingsSection id="advanced">
          <AdvancedSettings text={text} />
        </SettingsSection>
        <SettingsFooter
          {...{ outcome, profiles, saving, onDone, identityPending, resolveIdentity }}
          source={savedSource ?? settingsRowSource(saved)}
        />
      </form>
    </div>
  )
}

/** A text field of the form, by its field, label, hint and kind (SettingsEditor's `text`). */
type TextField = (
  field: TextFormField,
  label: string,
  hint?: string,
  type?: 'text' | 'url' | 'number',
) => ReactNode

/** Settings → Syncing: what a sync fetches and how, and when the app syncs by itself or warns of old data. */
function SyncSettings({
  form,
  errors,
  change,
  payCycles,
  locked,
  text,
}: Pick<SettingsFormController, 'form' | 'errors' | 'change'> & {
  readonly payCycles: PayCyclesState
  readonly locked: ReadonlySet<LockableFormField>
  readonly text: TextField
}) {
  return (
    <>
      <fieldset>
        <legend>Sync</legend>
        {text('pageSize', PAGE_SIZE_SETTING.label, PAGE_SIZE_SETTING.help, 'number')}
        {text('concurrency', 'Parallel requests', `${rangeText(SETTINGS_LIMITS.concurrency)}.`, 'number')}
        <TrackedPayCyclesField
          id="setting-trackedPayCycles"
          tracked={form.trackedPayCycles}
          payCycles={payCycles}
          error={errors.trackedPayCycles}
          onChange={(tracked) => change('trackedPayCycles', tracked)}
        />
        <CheckboxField
          id="setting-syncActiveOnly"
          label="Sync active employees only"
          checked={form.syncActiveOnly}
          error={errors.syncActiveOnly}
          locked={locked.has('syncActiveOnly')}
          hint={`${offOrOn(DEFAULT_SYNC_SCOPE === 'active')} by default. For large employers: the service sends only active employees (statusFilter=1), so no one else is saved; “Look up on the service” still finds anyone, and every export says the scope.`}
          onChange={(checked) => change('syncActiveOnly', checked)}
        />
      </fieldset>
      <fieldset>
        <legend>Keeping employees up to date</legend>
        {text(
          'staleAfterHours',
          'Warn when the data is older than (hours)',
          `A banner offers a sync once the saved employees are this old: ${rangeText(SETTINGS_LIMITS.staleAfterHours)} hours, ${FRESHNESS_DEFAULTS.staleAfterHours} by default.`,
          'number',
        )}
        <CheckboxField
          id="setting-syncOnLaunch"
          label="Sync when RosterDesk starts"
          checked={form.syncOnLaunch}
          error={errors.syncOnLaunch}
          hint={`${offOrOn(FRESHNESS_DEFAULTS.syncOnLaunch)} by default. Only when you are signed in; it starts a few seconds after the window opens.`}
          onChange={(checked) => change('syncOnLaunch', checked)}
        />
        {text(
          'syncEveryHours',
          'Sync automatically every (hours)',
          `0 turns automatic syncs off${FRESHNESS_DEFAULTS.syncEveryHours === 0 ? ' (the default)' : ''}; at most ${SETTINGS_LIMITS.syncEveryHours.max}. They run only while RosterDesk is open and you are signed in, never during another sync.`,
          'number',
        )}
      </fieldset>
    </>
  )
}

/** Settings → Advanced: the limits that stop a sync when the service misbehaves. */
function AdvancedSettings({ text }: { readonly text: TextField }) {
  return (
    <fieldset>
      {/* The section's heading says it already: the group keeps its name for screen readers. */}
      <legend className="visually-hidden">Advanced</legend>
      <p className="muted">
        Limits that stop a sync when the payroll service misbehaves. The saved employees are kept whenever a
        sync stops.
      </p>
      {text(
        'requestTimeoutSeconds',
        syncLimitLabel('requestTimeoutSeconds'),
        `How long RosterDesk waits for the service to answer one request before it tries again: ${limitRangeText('requestTimeoutSeconds')}`,
        'number',
      )}
      {text(
        'syncDeadlineMinutes',
        syncLimitLabel('syncDeadlineMinutes'),
        `A sync still running after this long is stopped: ${limitRangeText('syncDeadlineMinutes')}`,
        'number',
      )}
      {text(
        'maxEmployees',
        syncLimitLabel('maxEmployees'),
        `If the service says it has more employees than this, the sync stops before downloading them, since the number is probably wrong: ${limitRangeText('maxEmployees')}`,
        'number',
      )}
    </fieldset>
  )
}

interface EnvironmentFieldProps {
  readonly value: Environment
  readonly error: string | undefined
  readonly locked: boolean
  onChange(environment: Environment): void
}

/** Which payroll service RosterDesk talks to: Demo (built-in sample employees), Staging or Production. */
function EnvironmentField({ value, error, locked, onChange }: EnvironmentFieldProps) {
  return (
    <FormField
      id="setting-environment"
      label="Environment"
      error={error}
      locked={locked}
      hint={
        value === 'demo'
          ? 'Demo uses sample employees built into RosterDesk; the addresses and sign-in fields are for Staging and Production.'
          : undefined
      }
    >
      {(describedBy, invalid, disabled) => (
        <select
          id="setting-environment"
          value={value}
          disabled={disabled}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value as Environment)}
        >
          {ENVIRONMENTS.map((environment) => (
            <option key={environment} value={environment}>
              {environmentLabel(environment)}
            </option>
          ))}
        </select>
      )}
    </FormField>
  )
}

/**
 * The Tenant ID field: the editable one (`children`) for Staging and Production; while Demo is chosen, Demo's own
 * tenant, the one the header shows, read-only, since Demo ignores the tenant entered for the other two (which the
 * form keeps, unchanged, for them).
 */
function TenantField(props: {
  readonly demo: boolean
  /** Demo's tenant when Demo is in use; undefined when Demo is chosen but not saved yet. */
  readonly demoTenant: string | undefined
  readonly children: ReactNode
}) {
  if (!props.demo) return props.children
  const tenant = props.demoTenant
  return (
    <FormField
      id="setting-tenantId"
      label="Tenant ID"
      error={undefined}
      hint={
        tenant === undefined
          ? 'Demo uses its own tenant, built into RosterDesk; save to see it here. Choose Staging or Production to enter theirs.'
          : 'Demo’s own tenant, built into RosterDesk. Choose Staging or Production to enter theirs.'
      }
    >
      {(describedBy) => (
        <input
          id="setting-tenantId"
          type="text"
          value={tenant ?? ''}
          readOnly
          aria-describedby={describedBy}
          spellCheck={false}
        />
      )}
    </FormField>
  )
}
