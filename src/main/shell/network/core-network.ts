import type { X509Certificate } from 'node:crypto'
import { session, type Session } from 'electron'
import type { Logger } from '../../core/log/logger'
import {
  effectiveProxyChoice,
  loadExtraCertificates,
  proxyChoiceFromEnvironment,
  profileProxyChoice,
  proxyChoiceFromSwitches,
  type NetworkToApply,
} from '../../core/settings/network-settings'
import type { CoreNetworkFacts, NetworkApplied } from '../../core-host/process/core-process-jobs'
import {
  ACCEPT_CERTIFICATE,
  CertificateTrust,
  httpsProxyHosts,
  type TrustUse,
  type VerifyRequest,
} from './certificate-trust'
import { ClientCertificateChoice } from './client-certificate'
import { electronProxyConfig } from './proxy-config'

/**
 * The core process's session: its own partition, without `persist:`, so it lives in memory and no HTTP cache of
 * a payroll page ever lands on disk (electron 45.4.1 docs/api/utility-process.md, `partition`; decision 037).
 */
export const CORE_PARTITION = 'rosterdesk-core-network'

/** Chromium's proxy switches as main reads them (app.commandLine). */
export interface ProxySwitches {
  hasSwitch(name: string): boolean
  getSwitchValue(name: string): string
}

/** What main does for the core process's network: its session, proxy, trusted certificates and their record. */
export interface CoreNetwork {
  readonly session: Session
  /** Applies a profile's network settings (with the precedence rule) to the session; never throws. */
  apply(settings: NetworkToApply): Promise<NetworkApplied>
  /** `ses.resolveProxy(url)`: the route Chromium takes to `url` ("DIRECT", "PROXY host:port"). */
  resolveProxy(url: string): Promise<string>
  /** The chain the verify proc last saw for `host`, and the issuer of one it let Chromium refuse. */
  facts(host: string): CoreNetworkFacts
  /**
   * Has another session follow the same settings from now on: the proxy last applied, and a verify proc that
   * lets the profile's extra certificates vouch for that proxy's own certificate only, never another host's (the
   * updater's session, which electron-updater's requests use: the update feed is never trusted by the file).
   */
  follow(other: Session): Promise<void>
  /**
   * Whether `proxy` (host:port), met on the way to `url`, was chosen by the OS's settings or a PAC file (WPAD
   * included), not named to RosterDesk, and is reached over plain HTTP: the route `resolveProxy` gives lists it
   * as `PROXY`, not `HTTPS`. The OS's settings count as found automatically, since main cannot tell them apart.
   */
  discoveredPlainProxy(proxy: string, url: string | undefined): Promise<boolean>
  /** app's 'select-client-certificate' listener: the profile's certificate, for its service only (client-certificate.ts). */
  readonly onSelectClientCertificate: ClientCertificateChoice['onSelect']
  /**
   * Main's open dialog chose `path` and read it: its certificates, checked, are what `apply` trusts for that path
   * from now on, so the file is read once (issue 31, point 2) rather than again when the settings come back.
   */
  chosen(path: string, certificates: readonly X509Certificate[]): void
}

/**
 * Creates the core process's session (call after `ready`) with the verify proc that trusts the profile's extra
 * certificates for the profile's service host and the HTTPS proxy Chromium resolves for it (certificate-trust.ts). The proxy in force follows one precedence (network-settings.ts): the
 * machine policy's (`proxyFromPolicy`), then a command-line switch (`--proxy-server`, `--proxy-pac-url`, `--no-proxy-server`) over the environment
 * (HTTPS_PROXY, NO_PROXY) over the profile's choice over the OS's settings.
 */
export function createCoreNetwork(options: {
  readonly logger: Logger
  readonly switches: ProxySwitches
  readonly env: NodeJS.ProcessEnv
}): CoreNetwork {
  const ses = session.fromPartition(CORE_PARTITION)
  let serviceHost: string | undefined
  const clientCertificate = new ClientCertificateChoice(options.logger)
  const trust = new CertificateTrust({
    serviceHost: () => serviceHost,
    proxyHosts: async () =>
      serviceHost === undefined
        ? []
        : httpsProxyHosts(
            await ses.resolveProxy(
              `https://${serviceHost.includes(':') ? `[${serviceHost}]` : serviceHost}/`,
            ),
          ),
  })
  /** The verify proc of a session: the trust's answer, and why the file did not vouch for a chain, logged once. */
  const logged = new Set<string>()
  const verifyProc =
    (use: TrustUse) =>
    (request: VerifyRequest, callback: (result: number) => void): void =>
      trust.verify(
        request,
        (result) => {
          const why = result === ACCEPT_CERTIFICATE ? undefined : trust.refused(request.hostname)?.why
          if (why !== undefined && !logged.has(`${use} ${why}`)) {
            logged.add(`${use} ${why}`)
            options.logger.warn(
              `Network: the extra certificates do not vouch for ${request.hostname}: ${why}`,
            )
          }
          callback(result)
        },
        use,
      )
  ses.setCertificateVerifyProc(verifyProc('service'))
  /** The sessions that follow the settings: the core process's first, then any `follow` added. */
  const sessions: Session[] = [ses]
  const { switches } = options
  const value = (name: string) => (switches.hasSwitch(name) ? switches.getSwitchValue(name) : undefined)
  const commandLine = proxyChoiceFromSwitches({
    noProxyServer: switches.hasSwitch('no-proxy-server'),
    ...optional('proxyPacUrl', value('proxy-pac-url')),
    ...optional('proxyServer', value('proxy-server')),
    ...optional('proxyBypassList', value('proxy-bypass-list')),
  })
  const environment = proxyChoiceFromEnvironment(options.env)
  /** The certificates of each file read (chosen in the dialog, or named by the settings at start). */
  const read = new Map<string, readonly X509Certificate[]>()
  const certificatesOf = (path: string): readonly X509Certificate[] => {
    const known = read.get(path)
    if (known !== undefined) return known
    const loaded = loadExtraCertificates(path)
    read.set(path, loaded)
    return loaded
  }
  let applied = ''
  let appliedConfig: ReturnType<typeof electronProxyConfig> | undefined
  const setProxy = async (target: Session, config: ReturnType<typeof electronProxyConfig>) => {
    await target.setProxy(config)
    // Pooled connections kept the previous route (docs/api/session.md, setProxy).
    await target.closeAllConnections()
  }
  return {
    session: ses,
    async apply(settings) {
      const { choice, source } = effectiveProxyChoice({
        // The machine policy's proxy (already in the settings) over the switches and the environment.
        ...(settings.proxyFromPolicy === true ? { policy: profileProxyChoice(settings) } : {}),
        ...(commandLine === undefined ? {} : { commandLine }),
        ...(environment === undefined ? {} : { environment }),
        profile: settings,
      })
      const config = electronProxyConfig(choice)
      clientCertificate.set(settings.clientCertificate)
      let problem: string | undefined
      serviceHost = settings.serviceHost
      try {
        trust.setExtra(
          settings.extraCertificatesFile === '' ? [] : certificatesOf(settings.extraCertificatesFile),
        )
      } catch (error) {
        trust.setExtra([])
        problem = error instanceof Error ? error.message : String(error)
        options.logger.warn(`Network: the extra trusted certificates are not used: ${problem}`)
      }
      const key = JSON.stringify(config)
      if (key !== applied) {
        await Promise.all(sessions.map((target) => setProxy(target, config)))
        applied = key
        appliedConfig = config
        options.logger.info(`Network: proxy ${config.mode ?? 'fixed_servers'} (${source})`)
      }
      return {
        proxyMode: choice.mode,
        source,
        extraCertificates: trust.extraCount,
        ...(problem === undefined ? {} : { problem }),
      }
    },
    resolveProxy: (url) => ses.resolveProxy(url),
    facts(host) {
      const seen = trust.seen(host)
      const refused = trust.refused(host)
      return {
        ...(seen === undefined ? {} : { certificates: [...seen] }),
        ...(refused === undefined ? {} : { refused }),
      }
    },
    onSelectClientCertificate: clientCertificate.onSelect,
    async discoveredPlainProxy(proxy, url) {
      // Before the first apply the session follows the OS's settings, Chromium's default.
      const mode = appliedConfig?.mode ?? 'system'
      if (mode !== 'system' && mode !== 'pac_script') return false
      if (url === undefined) return true
      const route = (await ses.resolveProxy(url)).toLowerCase()
      return !route.split(';').some((entry) => entry.trim() === `https ${proxy.toLowerCase()}`)
    },
    chosen(path, certificates) {
      read.set(path, certificates)
    },
    async follow(other) {
      if (sessions.includes(other)) return
      sessions.push(other)
      other.setCertificateVerifyProc(verifyProc('proxy-only'))
      if (appliedConfig !== undefined) await setProxy(other, appliedConfig)
    },
  }
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>)
}
