import type { SettingsView } from '../../../shared/domain/settings'
import type { Settings } from '../../../shared/settings-schema'
import type { PolicyView } from '../../../shared/policy-view'
import { applySettingsPatch, settingsSchema } from '../../../shared/settings-schema'
import { resolveFormatLocale } from '../../../shared/locale-format'
import { CERTIFICATES_BY_DIALOG } from '../../../shared/settings-rules'
import { identityChanges, identityChoiceNeeded, type IdentityChoice } from '../../../shared/source-identity'
import { RosterDeskError } from '../errors'
import type { InvokeHandlers } from '../ipc/dispatch'
import type { AppHandlerDeps } from './app-handlers'
import type { SecretStore } from '../secrets/secret-store'
import type { SettingsStore } from '../settings/settings-store'
import { buildSettingsView } from '../settings/settings-view'
import type { SyncService } from '../sync/sync-service'

/** `appInfo.systemLocale`: the computer's regional formats, in which the refusals' counts are written. */
export interface SettingsHandlerDeps extends Pick<AppHandlerDeps, 'appInfo'> {
  readonly settings: SettingsStore
  readonly secrets: SecretStore
  readonly sync: SyncService
  /** The proxies whose sign-in main remembers (names only), listed in Settings → Network. */
  readonly rememberedProxies?: () => Promise<readonly string[]>
  /** What the machine policy locks for the active profile (policy-view.ts); absent: no policy. */
  readonly policyView?: () => PolicyView
  /**
   * Makes an identity change the clerk chose how to make (decision 039): a new profile with `settings`, switched
   * to, or this profile's employees set aside and `settings` saved. Absent (a core without profiles): refused.
   */
  readonly changeIdentity?: (choice: IdentityChoice, settings: Settings) => Promise<void>
}

/** The settings as the window shows them: whether a client secret is stored (never the secret), remembered proxies. */
export async function settingsViewOf(deps: SettingsHandlerDeps): Promise<SettingsView> {
  return buildSettingsView(
    deps.settings.get(),
    {
      hasClientSecret: (await deps.secrets.get('clientSecret')) !== undefined,
      persistent: deps.secrets.persistent,
      rememberedProxies: (await deps.rememberedProxies?.()) ?? [],
    },
    deps.policyView?.(),
  )
}

export type SettingsChannel = 'settings:get' | 'settings:update' | 'settings:set-client-secret'

/**
 * The `settings:*` channels: the settings as the window shows them (whether a client secret is stored, never the
 * secret), checked updates, refused while a sync runs, and the client secret, kept in the profile's secrets.
 */
export function createSettingsHandlers(deps: SettingsHandlerDeps): Pick<InvokeHandlers, SettingsChannel> {
  const settingsView = (): Promise<SettingsView> => settingsViewOf(deps)

  return {
    'settings:get': settingsView,
    'settings:update': async (patch, options) => {
      // Main's open dialog alone names the file (network:choose-certificates): a path from the window could be a
      // share main would read over SMB (issue 31, point 2).
      if (Object.hasOwn(patch, 'extraCertificatesFile')) {
        throw new RosterDeskError('validation', CERTIFICATES_BY_DIALOG, {
          fieldErrors: { extraCertificatesFile: CERTIFICATES_BY_DIALOG },
        })
      }
      if (deps.sync.isRunning) {
        throw new RosterDeskError(
          'busy',
          'Settings cannot change while a sync is running. Wait or cancel it.',
        )
      }
      const before = deps.settings.get()
      const applied = applySettingsPatch(patch, before)
      // A value the machine policy locks is refused first, by the field rules alone (not the cross-field ones a
      // locked environment would trip), and no identity choice is asked for a change never made.
      const fieldsOnly = applySettingsPatch(patch, before, settingsSchema)
      if (fieldsOnly.ok) deps.settings.checkPolicy(fieldsOnly.settings)
      if (applied.ok && identityChanges(before, applied.settings)) {
        const saved = deps.sync.getStatus().employeeCount
        if (options?.identityChange !== undefined && deps.changeIdentity !== undefined) {
          await deps.changeIdentity(options.identityChange, applied.settings)
          return settingsView()
        }
        // The rule lives here, not only in the form: no caller shows one source's employees under another's name.
        if (saved > 0) {
          const locale = resolveFormatLocale(before.formatLocale, deps.appInfo.systemLocale)
          throw new RosterDeskError('validation', identityChoiceNeeded(saved, locale))
        }
      }
      const result = deps.settings.update(patch)
      if (!result.ok) {
        const fields = Object.keys(result.fieldErrors)
        throw new RosterDeskError(
          'validation',
          `Check ${fields.length === 1 ? 'this field' : 'these fields'}: ${fields.join(', ')}.`,
          { fieldErrors: result.fieldErrors as Record<string, string> },
        )
      }
      return settingsView()
    },
    'settings:set-client-secret': async (secret) => {
      // The profile's SecretStore refuses it when the machine policy gives this profile's secret (policySecrets).
      await deps.secrets.set('clientSecret', secret)
      return settingsView()
    },
  }
}
