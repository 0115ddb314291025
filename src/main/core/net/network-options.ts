import { BlockList, isIP } from 'node:net'
import type { Settings } from '../../../shared/settings-schema'
import { RosterDeskError } from '../errors'
import { proxySourceInForce, type ProxySource } from '../settings/network-settings'
import { proxyLabel } from './network-failure'

/** The environment variables that give the proxy's credentials for a proxy URL that carries none. */
export const PROXY_USER_VARIABLE = 'ROSTERDESK_PROXY_USER'
export const PROXY_PASSWORD_VARIABLE = 'ROSTERDESK_PROXY_PASSWORD'

/** Where the network choice in force came from, highest precedence first. */
export type NetworkSource = ProxySource

/** One layer's network wishes: a proxy URL or 'none', a bypass list, an extra-certificates file. */
export interface NetworkLayer {
  /** A proxy URL (credentials refused), or 'none' for a direct connection. */
  readonly proxy?: string
  /** Hosts that bypass the proxy, NO_PROXY's syntax; with `proxy`. */
  readonly proxyBypass?: string
  /** A PEM file of certificates trusted besides Node's bundled list and the OS store. */
  readonly caFile?: string
}

/** The network settings of a profile the CLI reads (Settings → Network). */
export type ProfileNetworkSettings = Pick<
  Settings,
  'proxyMode' | 'proxyUrl' | 'proxyBypass' | 'pacUrl' | 'extraCertificatesFile'
>

/** A network choice that cannot be used, with the layer it came from (a flag's is the command line's usage). */
export class NetworkOptionError extends RosterDeskError {
  constructor(
    readonly source: NetworkSource,
    message: string,
    options: { detail?: string; cause?: unknown } = {},
  ) {
    super('config', message, options)
    this.name = 'NetworkOptionError'
  }
}

/** A proxy with its credentials, which only the fetch adapter sees: `label` is the one shown anywhere. */
export interface ProxyEndpoint {
  /** The proxy's URL with credentials, for the connection only: never logged, printed or put in an error. */
  readonly url: string
  /** host:port, for messages and logs. */
  readonly label: string
  /** scheme://host:port, without credentials: the proxy as a report shows it. */
  readonly address: string
  /** Where it was set, as a report names it: "--proxy", "HTTPS_PROXY", "the profile's proxy (Settings → Network)". */
  readonly origin: string
  readonly hasCredentials: boolean
}

/** The way a request to one URL goes (`routeFor`), with the reason in words: never a credential. */
export type NodeRoute =
  | { readonly kind: 'proxy'; readonly proxy: ProxyEndpoint }
  | {
      readonly kind: 'direct'
      /** Why no proxy: "--proxy none", "NO_PROXY lists 127.0.0.1", "no proxy is set (…)". */
      readonly why: string
    }

/** How requests under plain Node reach the service, decided once (`resolveNodeNetwork`). */
export interface NodeNetwork {
  /** The proxy for http:// and for https:// URLs; undefined: direct. */
  readonly httpProxy: ProxyEndpoint | undefined
  readonly httpsProxy: ProxyEndpoint | undefined
  /** Hosts that go direct, NO_PROXY's syntax (see `bypassesProxy`). */
  readonly noProxy: string
  readonly proxySource: NetworkSource
  /** The extra certificates file, when one is chosen. */
  readonly caFile: string | undefined
  readonly caFileSource: NetworkSource | undefined
  /** Sentences for the clerk about a choice that could not be honoured (a PAC file under the CLI). */
  readonly notes: readonly string[]
}

/** What `resolveNodeNetwork` weighs. */
export interface NodeNetworkInput {
  /** The machine policy (a later issue): over everything when given. */
  readonly policy?: NetworkLayer
  /** The command line's --proxy and --ca-file. */
  readonly flags?: NetworkLayer
  /** HTTPS_PROXY, HTTP_PROXY, NO_PROXY (either case), ROSTERDESK_PROXY_USER / _PASSWORD. */
  readonly env: NodeJS.ProcessEnv
  /** The profile's Settings → Network, with --profile. */
  readonly profile?: ProfileNetworkSettings
}

/**
 * The one precedence of network choices under plain Node: the machine policy over a command-line flag over the
 * environment over the profile's setting over the default, which for Node is the environment (the system settings
 * of a command-line tool). The proxy and the extra certificates are decided separately, each by the first layer
 * that says something. A proxy URL from a flag or a profile must carry no credentials (`config` error otherwise);
 * its credentials come from ROSTERDESK_PROXY_USER / ROSTERDESK_PROXY_PASSWORD. The environment's proxy URL may
 * carry them, or take those variables when it does not. A profile's PAC file is not supported here: the
 * environment is used and a note says so.
 */
export function resolveNodeNetwork(input: NodeNetworkInput): NodeNetwork {
  const env = input.env
  const notes: string[] = []
  const credentials = envCredentials(env)
  const envNoProxy = envValue(env, 'no_proxy') ?? ''
  const envHttps = envValue(env, 'https_proxy')
  const envHttp = envValue(env, 'http_proxy')
  const variable = (lower: string): string => (env[lower]?.trim() ? lower : lower.toUpperCase())

  const fixed = (
    layer: NetworkLayer,
    source: NetworkSource,
    bypass: string,
  ): Omit<NodeNetwork, 'caFile' | 'caFileSource' | 'notes'> => {
    const proxy = layer.proxy?.trim() ?? ''
    if (proxy.toLowerCase() === 'none') {
      return { httpProxy: undefined, httpsProxy: undefined, noProxy: '', proxySource: source }
    }
    const endpoint = proxyEndpoint(proxy, source, PROXY_ORIGINS[source], credentials)
    return {
      httpProxy: endpoint,
      httpsProxy: endpoint,
      noProxy: layer.proxyBypass ?? bypass,
      proxySource: source,
    }
  }
  const fromEnvironment = (source: NetworkSource): Omit<NodeNetwork, 'caFile' | 'caFileSource' | 'notes'> => {
    const http =
      envHttp === undefined
        ? undefined
        : proxyEndpoint(envHttp, 'environment', variable('http_proxy'), credentials)
    // As undici's EnvHttpProxyAgent does: https:// URLs use HTTP_PROXY when HTTPS_PROXY is not set.
    const https =
      envHttps === undefined
        ? http
        : proxyEndpoint(envHttps, 'environment', variable('https_proxy'), credentials)
    return { httpProxy: http, httpsProxy: https, noProxy: envNoProxy, proxySource: source }
  }

  const profile = input.profile
  const profileFixed = profile?.proxyMode === 'fixed' && profile.proxyUrl !== ''
  const source = proxySourceInForce({
    policy: hasProxy(input.policy),
    'command-line': hasProxy(input.flags),
    environment: envHttps !== undefined || envHttp !== undefined,
    profile: profile?.proxyMode === 'none' || profileFixed,
  })
  if (source === 'default' && profile?.proxyMode === 'pac') {
    notes.push(
      `The profile's PAC file (${profile.pacUrl}) is not supported on the command line: the environment's proxy settings (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) are used, and none are set, so requests go direct. Set HTTPS_PROXY, or pass --proxy URL.`,
    )
  }
  const layers: Readonly<
    Record<NetworkSource, () => Omit<NodeNetwork, 'caFile' | 'caFileSource' | 'notes'>>
  > = {
    policy: () => fixed(input.policy ?? {}, 'policy', ''),
    'command-line': () => fixed(input.flags ?? {}, 'command-line', envNoProxy),
    environment: () => fromEnvironment('environment'),
    profile: () =>
      profileFixed
        ? fixed({ proxy: profile.proxyUrl, proxyBypass: profile.proxyBypass }, 'profile', '')
        : fixed({ proxy: 'none' }, 'profile', ''),
    default: () => fromEnvironment('default'),
  }
  const proxy = layers[source]()

  const caLayers: ReadonlyArray<readonly [NetworkSource, string | undefined]> = [
    ['policy', input.policy?.caFile],
    ['command-line', input.flags?.caFile],
    ['profile', profile?.extraCertificatesFile],
  ]
  const ca = caLayers.find(([, file]) => file !== undefined && file.trim() !== '')
  return { ...proxy, caFile: ca?.[1]?.trim(), caFileSource: ca?.[0], notes }
}

/**
 * The proxy a request to `url` goes through, or undefined when it goes direct: the proxy for its scheme unless
 * the NO_PROXY list names its host. Decided here, not inside the HTTP library, because the CLI must also know it
 * to name the proxy in a message, to look at a refused certificate the same way, and to report it (`check`).
 */
export function proxyFor(network: NodeNetwork, url: string): ProxyEndpoint | undefined {
  const route = routeFor(network, url)
  return route.kind === 'proxy' ? route.proxy : undefined
}

/**
 * `proxyFor` with the reason when a request goes direct, as `cli check`'s proxy step says it: the bypass list
 * that names the host, "--proxy none", a profile's "No proxy", or no proxy set at all.
 */
export function routeFor(network: NodeNetwork, url: string): NodeRoute {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { kind: 'direct', why: 'the address cannot be read' }
  }
  const proxy = parsed.protocol === 'https:' ? network.httpsProxy : network.httpProxy
  if (proxy === undefined) return { kind: 'direct', why: noProxyWhy(network, parsed) }
  if (bypassesProxy(network.noProxy, parsed)) {
    const host = parsed.hostname.replace(/^\[(.+)\]$/, '$1')
    return { kind: 'direct', why: `${BYPASS_LIST_NAMES[network.proxySource]} lists ${host}` }
  }
  return { kind: 'proxy', proxy }
}

function noProxyWhy(network: NodeNetwork, url: URL): string {
  switch (network.proxySource) {
    case 'command-line':
      return '--proxy none'
    case 'policy':
      return 'the machine policy says no proxy'
    case 'profile':
      return "the profile's setting (Settings → Network) says No proxy"
    case 'environment':
      // Only HTTPS_PROXY is set, and this is an http:// address (HTTP_PROXY is the one for those).
      return `HTTP_PROXY is not set (HTTPS_PROXY is for https:// addresses only, ${url.protocol}// is not)`
    case 'default':
      return 'no proxy is set: no --proxy, HTTPS_PROXY or HTTP_PROXY'
  }
}

/** The bypass list in force, by where the proxy came from (a flag's proxy keeps the environment's NO_PROXY). */
const BYPASS_LIST_NAMES: Readonly<Record<NetworkSource, string>> = {
  policy: "the machine policy's bypass list",
  'command-line': 'NO_PROXY',
  environment: 'NO_PROXY',
  profile: "the profile's bypass list (Settings → Network)",
  default: 'NO_PROXY',
}

/**
 * Whether NO_PROXY-style `list` (entries separated by commas or spaces) sends `url` direct, as undici's
 * EnvHttpProxyAgent reads it: `*` matches every host; `host:port` only that port; `example.com` and `.example.com`
 * the host and its subdomains; `*.example.com` subdomains only; an IP address itself. Besides, as the profile's
 * bypass list allows (Chromium's syntax): an address range `10.0.0.0/8`, and `<local>` for a name without a dot.
 */
export function bypassesProxy(list: string, url: URL): boolean {
  const host = url.hostname
    .replace(/^\[(.+)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase()
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80)
  for (const raw of list.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase()
    if (entry === '') continue
    if (entry === '<local>') {
      if (!host.includes('.') && isIP(host) === 0) return true
      continue
    }
    if (entry.includes('/')) {
      if (inRange(entry, host)) return true
      continue
    }
    const withPort =
      /^\[(.+)\]:(\d+)$/.exec(entry) ?? (/^([^:]+):(\d+)$/.exec(entry) as RegExpExecArray | null)
    const name = (withPort?.[1] ?? entry.replace(/^\[(.+)\]$/, '$1')).replace(/\.$/, '')
    const entryPort = withPort?.[2] === undefined ? 0 : Number(withPort[2])
    if (entryPort !== 0 && entryPort !== port) continue
    if (name === '*') return true
    const wildcard = name.startsWith('*.')
    const suffix = name.replace(/^\*?\./, '')
    if (!wildcard && host === suffix) return true
    if (host.endsWith(`.${suffix}`)) return true
  }
  return false
}

function inRange(entry: string, host: string): boolean {
  const [address, bits] = entry.split('/')
  const family = isIP(address ?? '')
  const hostFamily = isIP(host)
  if (family === 0 || hostFamily !== family || address === undefined) return false
  const list = new BlockList()
  try {
    list.addSubnet(address, Number(bits), family === 6 ? 'ipv6' : 'ipv4')
  } catch {
    return false
  }
  return list.check(host, family === 6 ? 'ipv6' : 'ipv4')
}

function hasProxy(layer: NetworkLayer | undefined): layer is NetworkLayer & { proxy: string } {
  return layer?.proxy !== undefined && layer.proxy.trim() !== ''
}

/** An environment variable in either case (lower case first, as curl and undici read them); '' counts as unset. */
function envValue(env: NodeJS.ProcessEnv, lower: string): string | undefined {
  const value = env[lower] ?? env[lower.toUpperCase()]
  return value === undefined || value.trim() === '' ? undefined : value.trim()
}

function envCredentials(env: NodeJS.ProcessEnv): { user: string; password: string } | undefined {
  const user = env[PROXY_USER_VARIABLE] ?? ''
  if (user === '') return undefined
  return { user, password: env[PROXY_PASSWORD_VARIABLE] ?? '' }
}

/**
 * A proxy URL checked and joined with its credentials. From a flag, a profile or the policy a URL with a user name
 * or password is refused (a command line is visible to every user of the machine, a settings file is readable);
 * the environment's may carry them.
 */
function proxyEndpoint(
  raw: string,
  source: NetworkSource,
  origin: string,
  credentials: { user: string; password: string } | undefined,
): ProxyEndpoint {
  const where = PROXY_SOURCE_NAMES[source]
  let url: URL
  try {
    url = new URL(raw.includes('://') ? raw : `http://${raw}`)
  } catch {
    throw new NetworkOptionError(
      source,
      `${where}: the proxy address must look like http://proxy.example.com:8080.`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetworkOptionError(
      source,
      `${where}: the proxy address must start with http:// or https:// (${url.protocol.replace(/:$/, '')} proxies are not supported on the command line).`,
    )
  }
  if (url.hostname === '') {
    throw new NetworkOptionError(
      source,
      `${where}: the proxy address must name a host, for example http://proxy.example.com:8080.`,
    )
  }
  if (source !== 'environment' && (url.username !== '' || url.password !== '')) {
    throw new NetworkOptionError(
      source,
      `${where}: a proxy address must not contain a user name or password, since a command line and a settings file can be read by others. Set ${PROXY_USER_VARIABLE} and ${PROXY_PASSWORD_VARIABLE} instead.`,
    )
  }
  if (url.username === '' && credentials !== undefined) {
    url.username = encodeURIComponent(credentials.user)
    url.password = encodeURIComponent(credentials.password)
  }
  const label = proxyLabel(url.href)
  return {
    url: url.href.replace(/\/$/, ''),
    label,
    address: `${url.protocol}//${label}`,
    origin,
    hasCredentials: url.username !== '',
  }
}

/** A fixed proxy's origin as a report names it (`ProxyEndpoint.origin`); the environment's is its variable. */
const PROXY_ORIGINS: Readonly<Record<NetworkSource, string>> = {
  policy: 'the machine policy',
  'command-line': '--proxy',
  environment: 'HTTPS_PROXY / HTTP_PROXY',
  profile: "the profile's setting, Settings → Network",
  default: 'HTTPS_PROXY / HTTP_PROXY',
}

const PROXY_SOURCE_NAMES: Readonly<Record<NetworkSource, string>> = {
  policy: 'The machine policy',
  'command-line': '--proxy',
  environment: 'HTTPS_PROXY / HTTP_PROXY',
  profile: "The profile's proxy (Settings → Network)",
  default: 'HTTPS_PROXY / HTTP_PROXY',
}

/** The network choice in words for a log line or a report: never a credential. */
export function describeNodeNetwork(network: NodeNetwork): string {
  const proxy =
    network.httpsProxy === undefined && network.httpProxy === undefined
      ? 'no proxy'
      : `proxy ${network.httpsProxy?.label ?? network.httpProxy?.label ?? ''}${network.noProxy === '' ? '' : ` (not for ${network.noProxy})`}`
  const ca = network.caFile === undefined ? '' : `; extra certificates from ${network.caFile}`
  return `${proxy}, from ${SOURCE_WORDS[network.proxySource]}${ca}`
}

const SOURCE_WORDS: Readonly<Record<NetworkSource, string>> = {
  policy: 'the machine policy',
  'command-line': 'the command line',
  environment: 'the environment',
  profile: "the profile's settings",
  default: 'the environment (default)',
}
