import type { Settings, SettingsView } from '../../../shared/domain'

/**
 * What the renderer sees of the settings: the settings themselves and only whether a client secret is stored,
 * never the secret, plus whether secrets survive a restart.
 */
export function buildSettingsView(
  settings: Settings,
  secrets: { hasClientSecret: boolean; persistent: boolean; rememberedProxies?: readonly string[] },
): SettingsView {
  return {
    settings: structuredClone(settings),
    hasClientSecret: secrets.hasClientSecret,
    secretStorage: secrets.persistent ? 'os' : 'memory-only',
    rememberedProxies: [...(secrets.rememberedProxies ?? [])],
  }
}
