import type { SettingsView } from '../../../shared/domain/settings'
import type { Settings } from '../../../shared/settings-schema'
import { NO_POLICY_VIEW, type PolicyView } from '../../../shared/policy-view'

/**
 * What the renderer sees of the settings: the settings themselves and only whether a client secret is stored,
 * never the secret, plus whether secrets survive a restart, and what the machine policy locks.
 */
export function buildSettingsView(
  settings: Settings,
  secrets: { hasClientSecret: boolean; persistent: boolean; rememberedProxies?: readonly string[] },
  policy: PolicyView = NO_POLICY_VIEW,
): SettingsView {
  return {
    settings: structuredClone(settings),
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
