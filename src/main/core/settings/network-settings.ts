import { X509Certificate } from 'node:crypto'
import { readFileSync, realpathSync } from 'node:fs'
import { certificatesFileProblem, NOT_LOCAL_CERTIFICATES } from '../../../shared/settings-rules'
import type { Settings } from '../../../shared/settings-schema'
import { PROXY_MODES } from '../../../shared/settings-rules'
import { RosterDeskError } from '../errors'

/** A profile's Settings → Network fields: what the shell applies to the core process's network session. */
export type NetworkSettings = Pick<
  Settings,
  'proxyMode' | 'proxyUrl' | 'proxyBypass' | 'pacUrl' | 'extraCertificatesFile'
>

/**
 * What the core asks main to apply (`network-apply`): the active profile's network settings, the machine
 * policy's values already in force in them, and whether the proxy choice is the policy's, which then takes the
 * `policy` slot of the precedence and wins over the command line and the environment too; and the profile's
 * service host, the one host (with its proxy) the extra certificates file may vouch for.
 */
export type NetworkToApply = NetworkSettings & {
  readonly proxyFromPolicy?: boolean
  readonly serviceHost?: string
  /** The certificate the profile (or the policy) names, absent when none: see clientCertificateOf. */
  readonly clientCertificate?: ClientCertificateName
}

/** A host name as `serviceHostOf` gives it: lower case, no port, no brackets (an IPv6 address has colons). */
export function isServiceHostName(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z0-9.:_-]{1,253}$/.test(value)
}

/**
 * The host name of the profile's service address in force (lower case, without port or IPv6 brackets), or
 * undefined for Demo (its sandbox runs in the app) or an address not set.
 */
export function serviceHostOf(settings: Settings): string | undefined {
  if (settings.environment === 'demo') return undefined
  const address = settings.baseUrls[settings.environment]
  if (!URL.canParse(address)) return undefined
  const host = new URL(address).hostname.replace(/^\[(.+)\]$/, '$1').toLowerCase()
  return host === '' ? undefined : host
}

/**
 * A client certificate as a profile names it, and the one server it is sent to: the profile's service, as
 * Chromium names the server asking (`host:port`, an IPv6 address in brackets: net::HostPortPair::ToString, the
 * `url` of Electron's 'select-client-certificate').
 */
export interface ClientCertificateName {
  readonly subject: string
  readonly issuer: string
  readonly host: string
}

/** A certificate name as it arrives from another process (`value` unchecked): a copy, or undefined when not one. */
export function clientCertificateNameOf(value: unknown): ClientCertificateName | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { subject, issuer, host } = value as Record<string, unknown>
  const text = (field: unknown): field is string =>
    typeof field === 'string' && field !== '' && field.length <= 300
  return text(subject) && text(issuer) && text(host) ? { subject, issuer, host } : undefined
}

/**
 * The certificate `settings` name, for their environment's service address; undefined when they name none, or
 * on Demo (its service is this computer's sandbox, over plain HTTP).
 */
export function clientCertificateOf(settings: Settings): ClientCertificateName | undefined {
  const { clientCertificateSubject: subject, clientCertificateIssuer: issuer, environment } = settings
  if (subject === '' || issuer === '' || environment === 'demo') return undefined
  let url: URL
  try {
    url = new URL(settings.baseUrls[environment])
  } catch {
    return undefined
  }
  const port = url.port === '' ? (url.protocol === 'http:' ? '80' : '443') : url.port
  return { subject, issuer, host: `${url.hostname}:${port}` }
}

/**
 * `network-apply`'s argument as it arrives in main from the core process, checked field by field (a core process
 * is less trusted than main); throws TypeError when it is not network settings.
 */
export function networkToApplyOf(value: NetworkToApply): NetworkToApply {
  const fields = value as Partial<Record<keyof NetworkToApply, unknown>>
  const texts = ['proxyUrl', 'proxyBypass', 'pacUrl', 'extraCertificatesFile'] as const
  const certificate = clientCertificateNameOf(fields.clientCertificate)
  if (
    typeof value !== 'object' ||
    value === null ||
    !(PROXY_MODES as readonly unknown[]).includes(fields.proxyMode) ||
    texts.some((key) => typeof fields[key] !== 'string') ||
    (fields.proxyFromPolicy !== undefined && typeof fields.proxyFromPolicy !== 'boolean') ||
    (fields.serviceHost !== undefined && !isServiceHostName(fields.serviceHost)) ||
    (fields.clientCertificate !== undefined && certificate === undefined)
  )
    throw new TypeError(
      'core process: network settings are a proxy mode, texts, a policy flag and a host name',
    )
  return {
    proxyMode: value.proxyMode,
    proxyUrl: value.proxyUrl,
    proxyBypass: value.proxyBypass,
    pacUrl: value.pacUrl,
    extraCertificatesFile: value.extraCertificatesFile,
    ...(value.proxyFromPolicy === true ? { proxyFromPolicy: true } : {}),
    ...(value.serviceHost === undefined ? {} : { serviceHost: value.serviceHost }),
    ...(certificate === undefined ? {} : { clientCertificate: certificate }),
  }
}

export function networkSettingsOf(settings: Settings): NetworkSettings {
  return {
    proxyMode: settings.proxyMode,
    proxyUrl: settings.proxyUrl,
    proxyBypass: settings.proxyBypass,
    pacUrl: settings.pacUrl,
    extraCertificatesFile: settings.extraCertificatesFile,
  }
}

/** How requests reach the service: the OS's settings, no proxy, one proxy (with a bypass list) or a PAC file. */
export type ProxyChoice =
  | { readonly mode: 'system' }
  | { readonly mode: 'none' }
  | { readonly mode: 'fixed'; readonly proxyUrl: string; readonly bypass: string }
  | { readonly mode: 'pac'; readonly pacUrl: string }

/** Where the proxy choice in force came from, strongest first (the one precedence rule of issue 22). */
export const PROXY_SOURCES = ['policy', 'command-line', 'environment', 'profile', 'default'] as const
export type ProxySource = (typeof PROXY_SOURCES)[number]

/** The candidates, each absent when that level says nothing. `profile` is always there (its default is 'system'). */
export interface ProxyCandidates {
  /** The machine's policy (a later issue): strongest of all. */
  readonly policy?: ProxyChoice
  readonly commandLine?: ProxyChoice
  readonly environment?: ProxyChoice
  readonly profile: NetworkSettings
}

/**
 * The one precedence rule for the proxy: the machine policy over a command-line switch over the environment over
 * the profile's setting over the default ('system'). A profile left at the default counts as the default, so a
 * `--proxy-server` switch or HTTPS_PROXY is never overridden by a choice the clerk never made.
 */
export function effectiveProxyChoice(candidates: ProxyCandidates): {
  readonly choice: ProxyChoice
  readonly source: ProxySource
} {
  const profile = profileProxyChoice(candidates.profile)
  const source = proxySourceInForce({
    policy: candidates.policy !== undefined,
    'command-line': candidates.commandLine !== undefined,
    environment: candidates.environment !== undefined,
    profile: profile.mode !== 'system',
  })
  const choices: Readonly<Record<ProxySource, ProxyChoice | undefined>> = {
    policy: candidates.policy,
    'command-line': candidates.commandLine,
    environment: candidates.environment,
    profile,
    default: { mode: 'system' },
  }
  return { choice: choices[source] ?? { mode: 'system' }, source }
}

/**
 * The one precedence rule, for the app (effectiveProxyChoice) and everything under plain Node
 * (network-options.ts, resolveNodeNetwork): the first level of PROXY_SOURCES that says something, the default
 * when none does. `says` tells, per level, whether it names a choice.
 */
export function proxySourceInForce(says: Readonly<Partial<Record<ProxySource, boolean>>>): ProxySource {
  return PROXY_SOURCES.find((source) => source === 'default' || says[source] === true) ?? 'default'
}

/** The profile's own choice, as its fields say it. */
export function profileProxyChoice(settings: NetworkSettings): ProxyChoice {
  switch (settings.proxyMode) {
    case 'none':
      return { mode: 'none' }
    case 'fixed':
      return settings.proxyUrl === ''
        ? { mode: 'system' }
        : { mode: 'fixed', proxyUrl: settings.proxyUrl, bypass: settings.proxyBypass }
    case 'pac':
      return settings.pacUrl === '' ? { mode: 'system' } : { mode: 'pac', pacUrl: settings.pacUrl }
    case 'system':
      return { mode: 'system' }
  }
}

/**
 * Chromium's proxy switches as a choice (`--no-proxy-server`, `--proxy-pac-url`, `--proxy-server` with
 * `--proxy-bypass-list`), in Chromium's own order of strength; undefined when none is given. Values are taken as
 * Chromium reads them (a proxy rule list, a bypass list).
 */
export function proxyChoiceFromSwitches(switches: {
  readonly noProxyServer?: boolean
  readonly proxyPacUrl?: string
  readonly proxyServer?: string
  readonly proxyBypassList?: string
}): ProxyChoice | undefined {
  if (switches.noProxyServer === true) return { mode: 'none' }
  if (switches.proxyPacUrl !== undefined && switches.proxyPacUrl !== '')
    return { mode: 'pac', pacUrl: switches.proxyPacUrl }
  if (switches.proxyServer !== undefined && switches.proxyServer !== '')
    return { mode: 'fixed', proxyUrl: switches.proxyServer, bypass: switches.proxyBypassList ?? '' }
  return undefined
}

/**
 * HTTPS_PROXY / HTTP_PROXY (and their lower-case forms) with NO_PROXY as a choice, as command-line tools read
 * them; undefined when none is set. A user name or password in the variable is left out of the proxy rule
 * (Chromium's rules carry none): the proxy then asks, and the app's sign-in answers.
 */
export function proxyChoiceFromEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): ProxyChoice | undefined {
  const raw = [env['HTTPS_PROXY'], env['https_proxy'], env['HTTP_PROXY'], env['http_proxy']].find(
    (value) => value !== undefined && value.trim() !== '',
  )
  if (raw === undefined) return undefined
  const text = raw.trim()
  const url = URL.canParse(text.includes('://') ? text : `http://${text}`)
    ? new URL(text.includes('://') ? text : `http://${text}`)
    : undefined
  if (url === undefined || url.hostname === '') return undefined
  const noProxy = (env['NO_PROXY'] ?? env['no_proxy'] ?? '').split(/[\s,]+/).filter((entry) => entry !== '')
  return {
    mode: 'fixed',
    proxyUrl: `${url.protocol}//${url.host}`,
    bypass: noProxy.map((entry) => (entry === '*' ? '*' : entry)).join(', '),
  }
}

/** The most certificates one extra-certificates file may hold (a bundle of a company's roots is a handful). */
export const MAX_EXTRA_CERTIFICATES = 200

/**
 * The certificates in PEM text, in file order; [] when it holds none. A block that does not parse is refused
 * with the block's number, so IT can find it.
 */
export function readPemCertificates(text: string): X509Certificate[] {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []
  return blocks.slice(0, MAX_EXTRA_CERTIFICATES).map((block, index) => {
    try {
      return new X509Certificate(block)
    } catch (error) {
      throw new RosterDeskError(
        'validation',
        `Certificate ${index + 1} in the file cannot be read. Choose a PEM file whose certificates are whole (BEGIN CERTIFICATE … END CERTIFICATE).`,
        { detail: error instanceof Error ? error.message : String(error), cause: error },
      )
    }
  })
}

/**
 * Refuses, before anything opens it, a certificate file that is not on this computer (issue 31, point 2): a
 * network share or device path by its spelling (certificatesFileProblem), and on Windows a path on a mapped
 * network drive, which `realpath.native` (GetFinalPathNameByHandle) answers as the share's UNC path.
 */
export function checkLocalCertificateFile(path: string, platform: NodeJS.Platform = process.platform): void {
  const spelled = certificatesFileProblem(path)
  if (spelled !== undefined) throw new RosterDeskError('validation', spelled, { detail: 'not a local path' })
  if (platform !== 'win32') return
  let real: string
  try {
    real = realpathSync.native(path)
  } catch {
    return // Missing or unreadable: the read says which.
  }
  if (certificatesFileProblem(real) === NOT_LOCAL_CERTIFICATES)
    throw new RosterDeskError('validation', NOT_LOCAL_CERTIFICATES, { detail: 'on a network drive' })
}

/**
 * The extra trusted certificates a profile names: a local file (checkLocalCertificateFile) read once and checked
 * to hold at least one PEM certificate, or a 'validation' error saying precisely what is wrong (not local,
 * missing, unreadable, not PEM, empty).
 */
export function loadExtraCertificates(path: string): X509Certificate[] {
  checkLocalCertificateFile(path)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as { code?: unknown }).code
    throw new RosterDeskError(
      'validation',
      code === 'ENOENT'
        ? `The certificate file ${path} does not exist. Choose it again in Settings → Network.`
        : `The certificate file ${path} cannot be read. Check that RosterDesk may open it.`,
      { detail: typeof code === 'string' ? code : 'unreadable', cause: error },
    )
  }
  const certificates = readPemCertificates(text)
  if (certificates.length === 0) {
    throw new RosterDeskError(
      'validation',
      `The file ${path} holds no certificate in PEM form (text starting with -----BEGIN CERTIFICATE-----). Ask IT for the company's root certificate as a .pem or .crt file in Base-64.`,
      { detail: `no PEM certificate in ${text.length} characters` },
    )
  }
  return certificates
}
