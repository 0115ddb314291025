import type { AppNetwork } from '../../core/app/network-handlers'
import type { ProxyRoute } from '../../core/connection-check/check-inputs'
import type { JobContext } from '../worker/serve-jobs'
import type { CoreProcessReport, ShellCalls } from './core-process-jobs'

/** The serve job's context, through which the core process asks main. */
type ServeContext = Pick<JobContext<CoreProcessReport, ShellCalls>, 'call'>

/**
 * The app's network as the core process sees it when main holds its session: Test connection's probes answer
 * with Electron's own proxy resolution (`ses.resolveProxy`) and the certificates main's verify proc saw; DNS,
 * TCP and TLS are Chromium's, done inside its network stack (and by the proxy, behind one), so they are reported
 * as unseen rather than guessed. Remembered proxy sign-ins and the certificate dialog are main's.
 */
export function shellAppNetwork(context: ServeContext): AppNetwork {
  return {
    probes: {
      runtime: 'app',
      proxy: async (url) => proxyRoute(await context.call('network-resolve-proxy', url)),
      certificates: async (url) => {
        if (!URL.canParse(url)) return undefined
        return (await context.call('network-facts', new URL(url).hostname)).certificates
      },
      unseen:
        'Electron’s network stack resolves the name, connects and checks the certificate itself; each request’s outcome is shown instead',
    },
    rememberedProxies: () => context.call('network-remembered-proxies', null),
    forgetProxy: async (proxy) => void (await context.call('network-forget-proxy', proxy)),
    chooseCertificatesFile: () => context.call('network-choose-certificates', null),
  }
}

/**
 * What `ses.resolveProxy` answers (Chromium's PAC-style list: "DIRECT", "PROXY host:port; DIRECT", "HTTPS …",
 * "SOCKS5 …") as the route it names first.
 */
export function proxyRoute(resolved: string): ProxyRoute {
  const source = `Electron resolved “${resolved.trim() || 'DIRECT'}”`
  const [first = 'DIRECT'] = resolved
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  const [kind = 'DIRECT', address] = first.split(/\s+/)
  if (kind.toUpperCase() === 'DIRECT' || address === undefined) return { kind: 'direct', source }
  return { kind: 'proxy', url: `${PAC_SCHEMES.get(kind.toUpperCase()) ?? 'http'}://${address}`, source }
}

const PAC_SCHEMES = new Map([
  ['PROXY', 'http'],
  ['HTTPS', 'https'],
  ['SOCKS', 'socks4'],
  ['SOCKS4', 'socks4'],
  ['SOCKS5', 'socks5'],
  ['QUIC', 'quic'],
])
