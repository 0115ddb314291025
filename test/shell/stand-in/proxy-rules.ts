import { isIP } from 'node:net'

/**
 * Electron's ProxyConfig (electron 45.4.1, docs/api/structures/proxy-config.md) as the stand-in's session holds
 * it, and the route Chromium would take for a URL under it: what `ses.resolveProxy` answers and what the
 * stand-in's utility `net` connects through. Covered: 'direct', 'fixed_servers' (scheme-specific rules, the first
 * proxy of a list, `direct://`), Chromium's bypass rules (host patterns with `*`, `.suffix`, IP literals and
 * CIDR ranges, `<local>`) and its implicit bypass of loopback unless the rules say `<-loopback>` (the reason
 * Electron's own specs set `proxyBypassRules: '<-loopback>'`, e.g. spec/api-utility-process-spec.ts, "resolves
 * hosts using the session network context"). Not covered: 'system' and 'auto_detect' (the test machine's own
 * settings: treated as DIRECT, since the tests run with none) and 'pac_script' (no PAC evaluator here: DIRECT).
 */
export interface StandInProxyConfig {
  readonly mode?: 'direct' | 'auto_detect' | 'pac_script' | 'fixed_servers' | 'system'
  readonly pacScript?: string
  readonly proxyRules?: string
  readonly proxyBypassRules?: string
}

export type Route =
  { readonly kind: 'direct' } | { readonly kind: 'proxy'; readonly host: string; readonly port: number }

/** The route for `url` under `config`. */
export function routeFor(config: StandInProxyConfig, url: URL): Route {
  const mode = config.mode ?? (config.pacScript ? 'pac_script' : 'fixed_servers')
  if (mode !== 'fixed_servers' || !config.proxyRules) return { kind: 'direct' }
  if (bypassed(config.proxyBypassRules ?? '', url)) return { kind: 'direct' }
  const scheme = url.protocol.replace(/:$/, '')
  let chosen: string | undefined
  for (const entry of config.proxyRules.split(';').map((rule) => rule.trim())) {
    const equals = entry.indexOf('=')
    const ruleScheme = equals === -1 ? undefined : entry.slice(0, equals).trim()
    const list = equals === -1 ? entry : entry.slice(equals + 1)
    if (ruleScheme === undefined || ruleScheme === scheme) {
      chosen = list.split(',')[0]?.trim()
      if (ruleScheme !== undefined) break
    }
  }
  if (chosen === undefined || chosen === '' || chosen.startsWith('direct://')) return { kind: 'direct' }
  const proxy = new URL(chosen.includes('://') ? chosen : `http://${chosen}`)
  const port = proxy.port === '' ? (proxy.protocol === 'https:' ? 443 : 80) : Number(proxy.port)
  return { kind: 'proxy', host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'), port }
}

/** `ses.resolveProxy`'s answer: Chromium's PAC-style "DIRECT" or "PROXY host:port". */
export function pacString(route: Route): string {
  return route.kind === 'direct' ? 'DIRECT' : `PROXY ${route.host}:${route.port}`
}

function bypassed(rules: string, url: URL): boolean {
  const entries = rules
    .split(/[,;]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  if (!entries.includes('<-loopback>') && isLoopback(host)) return true
  return entries.some((entry) => {
    if (entry === '<-loopback>') return false
    if (entry === '<local>') return !host.includes('.') && isIP(host) === 0
    const slash = entry.indexOf('/')
    if (slash !== -1 && isIP(entry.slice(0, slash)) !== 0) return inRange(host, entry)
    const pattern = entry
      .replace(/^[a-z]+:\/\//, '')
      .replace(/:\d+$/, '')
      .toLowerCase()
    if (pattern.startsWith('.')) return host.endsWith(pattern) || host === pattern.slice(1)
    const expression = new RegExp(`^${pattern.split('*').map(escape).join('.*')}$`)
    return expression.test(host)
  })
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host)
}

function inRange(host: string, cidr: string): boolean {
  const [base = '', bitsText = '32'] = cidr.split('/')
  if (isIP(host) !== 4 || isIP(base) !== 4) return false
  const bits = Number(bitsText)
  const value = (address: string) => address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0)
  const mask = bits === 0 ? 0 : 2 ** 32 - 2 ** (32 - bits)
  return (value(host) & mask) >>> 0 === (value(base) & mask) >>> 0
}

function escape(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
}
