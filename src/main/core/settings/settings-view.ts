import type { SettingsView } from '../../../shared/domain/settings'
import type { Settings } from '../../../shared/settings-schema'
import { NO_POLICY_VIEW, type PolicyView } from '../../../shared/policy-view'

/**
 * What the renderer sees of the settings: the settings themselves and only whether a client secret is stored,
 * never the secret, plus whether secrets survive a restart, and what the machine policy locks. The certificate
 * file is shown by its name alone: the window never holds a path (issue 31, point 2; main's dialog chooses it).
 */
export function buildSettingsView(
  settings: Settings,
  secrets: { hasClientSecret: boolean; persistent: boolean; rememberedProxies?: readonly string[] },
  policy: PolicyView = NO_POLICY_VIEW,
): SettingsView {
  return {
    settings: {
      ...structuredClone(settings),
      extraCertificatesFile: fileName(settings.extraCertificatesFile),
    },
    hasClientSecret: secrets.hasClientSecret,
    secretStorage: secrets.persistent ? 'os' : 'memory-only',
    rememberedProxies: [...(secrets.rememberedProxies ?? [])],
    policy: {
      ...policy,
      lockedFields: [...policy.lockedFields],
      exports: { ...policy.exports },
      notices: [...policy.notices],
    },
  }
}

/** A path's last part, for Windows and POSIX paths alike ('' stays ''). */
function fileName(path: string): string {
  return path.split(/[\\/]/).at(-1) ?? ''
}
