import type { SettingsView } from '../../../shared/domain/settings'
import type { FetchLike } from '../api/fetch-like'
import type { AuthService } from '../auth/auth-service'
import type { Clock } from '../clock'
import { RosterDeskError } from '../errors'
import type { InvokeHandlers } from '../ipc/dispatch'
import type { ConnectionProbes } from '../connection-check/check-inputs'
import { checkProfileConnection } from '../connection-check/connection-check'
import type { DemoEnvironment } from '../settings/resolve-environment'
import type { SettingsStore } from '../settings/settings-store'
import type { SyncService } from '../sync/sync-service'

/**
 * What the app's network is, as the runtime gives it: in the app, main's answers about the core process's
 * session (Electron's proxy resolution, the certificates its verify proc saw, the proxy sign-ins main remembers,
 * the open dialog); under plain Node (tests, benchmarks), `plainNodeNetwork`.
 */
export interface AppNetwork {
  /** What Test connection can see of the network in this runtime. */
  readonly probes: ConnectionProbes
  /** Proxies (host:port) whose sign-in is remembered: names only, the credentials stay in main. */
  rememberedProxies(): Promise<readonly string[]>
  forgetProxy(proxy: string): Promise<void>
  /**
   * Main's native open dialog for a PEM file: the path of a local file main has read once and found to hold PEM
   * certificates (a 'validation' error saying what is wrong otherwise); undefined when cancelled.
   */
  chooseCertificatesFile(): Promise<string | undefined>
}

/**
 * The app core run by plain Node (the browser tests, benchmarks): Node's fetch goes direct, nothing is
 * remembered, and there is no dialog to choose a file in.
 */
export const plainNodeNetwork: AppNetwork = {
  probes: {
    runtime: 'app',
    proxy: async () => ({ kind: 'direct', source: 'Node’s fetch, which uses no proxy' }),
    unseen: 'Node’s fetch connects by itself and shows no steps',
  },
  rememberedProxies: async () => [],
  forgetProxy: async () => undefined,
  chooseCertificatesFile: async () => {
    throw new RosterDeskError('validation', 'Choosing a certificate file needs RosterDesk’s window.')
  },
}

export interface NetworkHandlerDeps {
  readonly settings: SettingsStore
  readonly sync: SyncService
  readonly auth: AuthService
  readonly fetch: FetchLike
  readonly clock: Clock
  readonly demoEnvironment: DemoEnvironment
  /** The active profile's name, shown in the report. */
  readonly profileName: () => string
  readonly network: AppNetwork
  /** The settings as the window shows them (settings-handlers.ts), after a change here. */
  readonly settingsView: () => Promise<SettingsView>
  /** The computer's regional formats (AppInfo.systemLocale): the report's counts follow the profile's formats. */
  readonly systemLocale?: string | undefined
}

export type NetworkChannel =
  | 'network:check'
  | 'network:choose-certificates'
  | 'network:remove-certificates'
  | 'network:forget-proxy-password'
  | 'network:answer-proxy-sign-in'

/**
 * The `network:*` channels the core answers: Test connection over the app's own fetch (Electron's network stack
 * in the app) and the runtime's probes; choosing the extra trusted certificates (main's dialog, where main checks
 * the file, its path kept in the active profile) and removing them; forgetting a remembered proxy
 * sign-in. `network:answer-proxy-sign-in` is main's alone (the core never sees a proxy's credentials): main's
 * handler answers it before anything is sent here, so reaching this one is a wiring fault, refused as such.
 */
export function createNetworkHandlers(deps: NetworkHandlerDeps): Pick<InvokeHandlers, NetworkChannel> {
  return {
    'network:check': async () => {
      const signedIn = deps.auth.getState().status === 'signed-in'
      return checkProfileConnection(deps.settings.get(), {
        fetch: deps.fetch,
        clock: deps.clock,
        probes: deps.network.probes,
        demo: deps.demoEnvironment,
        profileName: deps.profileName(),
        ...(signedIn ? { tokens: deps.auth.tokens } : {}),
        ...(deps.systemLocale === undefined ? {} : { systemLocale: deps.systemLocale }),
      })
    },
    'network:choose-certificates': async () => {
      // Main checked the file (local, PEM certificates) as it read it, once, and applies what it read.
      const path = await deps.network.chooseCertificatesFile()
      if (path === undefined) return deps.settingsView()
      return setCertificatesFile(deps, path)
    },
    'network:remove-certificates': async () => setCertificatesFile(deps, ''),
    'network:forget-proxy-password': async (proxy) => {
      await deps.network.forgetProxy(proxy)
      return deps.settingsView()
    },
    'network:answer-proxy-sign-in': async () => {
      throw new RosterDeskError('internal', 'This answer belongs to RosterDesk’s window process.', {
        detail: 'network:answer-proxy-sign-in reached the core process; main answers it (decision 037)',
      })
    },
  }
}

/** Keeps `path` ('' for none) as the active profile's certificate file: the settings store's own checks apply. */
async function setCertificatesFile(deps: NetworkHandlerDeps, path: string): Promise<SettingsView> {
  if (deps.sync.isRunning)
    throw new RosterDeskError('busy', 'Settings cannot change while a sync is running. Wait or cancel it.')
  const result = deps.settings.update({ extraCertificatesFile: path })
  if (!result.ok) {
    throw new RosterDeskError(
      'validation',
      result.fieldErrors['extraCertificatesFile'] ?? 'The certificate file cannot be used.',
      { fieldErrors: result.fieldErrors as Record<string, string> },
    )
  }
  return deps.settingsView()
}
