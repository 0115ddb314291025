import { RosterDeskError, type ErrorCode } from '../errors'

/** The certificate a client saw on a refused connection (the leaf's subject, the issuer named on it). */
export interface CertificateSeen {
  readonly subject: string
  readonly issuer: string
  /** The end of the certificate's validity, as the TLS layer printed it. */
  readonly validTo?: string
  /** Why the extra certificates file did not vouch for the chain (certificate-trust.ts), when it was asked. */
  readonly why?: string
}

/** What a fetch adapter knows about a failure beyond its raw reason. `proxy` is never given with credentials. */
export interface NetworkFailureFacts {
  /** The host (host or host:port) the failure concerns, when it is not the request URL's. */
  readonly host?: string
  /** The proxy in use, as host:port (a URL is accepted; any user name or password in it is dropped). */
  readonly proxy?: string
  readonly certificate?: CertificateSeen
  /** True when the proxy answered 407 although credentials were sent: it refused them. */
  readonly proxyAuthRefused?: boolean
}

/** Thrown by a fetch adapter that knows more than an error code (the certificate it saw, the proxy in use). */
export class NetworkFailureError extends Error {
  constructor(
    /** The raw reason: 'ENOTFOUND', 'ECONNREFUSED', 'CERT_HAS_EXPIRED', 'net::ERR_NAME_NOT_RESOLVED', 'proxy-407', … */
    readonly reason: string,
    readonly facts: NetworkFailureFacts,
    options?: { cause?: unknown },
  ) {
    super(`network failure: ${reason}`, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'NetworkFailureError'
  }
}

/** The kinds of failure the classifier tells apart; each has one code, one retry rule and one message. */
type FailureKind =
  | 'proxy-auth'
  | 'proxy-unreachable'
  | 'proxy-tunnel'
  | 'proxy-config'
  | 'cert-untrusted'
  | 'cert-expired'
  | 'cert-host'
  | 'cert-revoked'
  | 'tls-protocol'
  | 'dns'
  | 'dns-unavailable'
  | 'refused'
  | 'timeout'
  | 'reset'
  | 'offline'
  | 'unreachable'
  | 'headers-too-large'
  | 'interim-continue'

/**
 * The reason read from undici's SocketError('bad response'): while a request runs, its HTTP/1.1 parser raises it
 * only for an interim 100 Continue (client-h1.js; the other 'bad response' is an answer with no request running).
 */
export const UNASKED_CONTINUE_REASON = 'UND_ERR_SOCKET: bad response'

/**
 * Raw reasons by kind: Node's and OpenSSL's error codes as undici reports them on `cause.code`, and Chromium's
 * net error names (net_error_list.h) as Electron's `net.fetch` reports them in the message ("net::ERR_…").
 */
const REASONS: ReadonlyMap<string, FailureKind> = new Map<string, FailureKind>([
  ...kinds('dns', ['ENOTFOUND', 'net::ERR_NAME_NOT_RESOLVED', 'net::ERR_ICANN_NAME_COLLISION']),
  ...kinds('dns-unavailable', [
    'EAI_AGAIN',
    'EAI_FAIL',
    'net::ERR_NAME_RESOLUTION_FAILED',
    'net::ERR_DNS_TIMED_OUT',
  ]),
  ...kinds('refused', ['ECONNREFUSED', 'net::ERR_CONNECTION_REFUSED']),
  ...kinds('timeout', [
    'ETIMEDOUT',
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
    'net::ERR_CONNECTION_TIMED_OUT',
    'net::ERR_TIMED_OUT',
  ]),
  ...kinds('reset', [
    'ECONNRESET',
    'ECONNABORTED',
    'EPIPE',
    'UND_ERR_SOCKET',
    'UND_ERR_CLOSED',
    'net::ERR_CONNECTION_RESET',
    'net::ERR_CONNECTION_CLOSED',
    'net::ERR_CONNECTION_ABORTED',
    'net::ERR_EMPTY_RESPONSE',
    'net::ERR_NETWORK_CHANGED',
    'net::ERR_HTTP2_PROTOCOL_ERROR',
  ]),
  ...kinds('offline', ['net::ERR_INTERNET_DISCONNECTED']),
  // Over undici's limit (Node's http.maxHeaderSize, 16 KB by default; client-h1.js trackHeader) or Chromium's
  // (256 KB, http_stream_parser.cc): the service's answer, and the same one again on a retry.
  ...kinds('headers-too-large', ['UND_ERR_HEADERS_OVERFLOW', 'net::ERR_RESPONSE_HEADERS_TOO_BIG']),
  // undici ends a connection on an interim 100 Continue no request asked for (client-h1.js onHeadersComplete:
  // SocketError 'bad response'); Chromium reads past every 1xx but 101 (HttpNetworkTransaction).
  ...kinds('interim-continue', [UNASKED_CONTINUE_REASON]),
  ...kinds('unreachable', [
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ENETDOWN',
    'net::ERR_ADDRESS_UNREACHABLE',
    'net::ERR_CONNECTION_FAILED',
    'net::ERR_NETWORK_ACCESS_DENIED',
  ]),
  ...kinds('proxy-auth', [
    'proxy-407',
    'net::ERR_PROXY_AUTH_REQUESTED',
    'net::ERR_PROXY_AUTH_UNSUPPORTED',
    'net::ERR_PROXY_AUTH_REQUESTED_WITH_NO_CONNECTION',
  ]),
  ...kinds('proxy-unreachable', ['net::ERR_PROXY_CONNECTION_FAILED']),
  ...kinds('proxy-tunnel', ['net::ERR_TUNNEL_CONNECTION_FAILED']),
  ...kinds('proxy-config', [
    'net::ERR_MANDATORY_PROXY_CONFIGURATION_FAILED',
    'net::ERR_PAC_NOT_IN_DHCP',
    'net::ERR_PROXY_HTTP_1_1_REQUIRED',
  ]),
  ...kinds('cert-untrusted', [
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'CERT_UNTRUSTED',
    'CERT_REJECTED',
    'CERT_SIGNATURE_FAILURE',
    'INVALID_CA',
    'CERT_CHAIN_TOO_LONG',
    'PATH_LENGTH_EXCEEDED',
    'INVALID_PURPOSE',
    'UND_ERR_PRX_TLS',
    'net::ERR_CERT_AUTHORITY_INVALID',
    'net::ERR_CERT_INVALID',
    'net::ERR_PROXY_CERTIFICATE_INVALID',
  ]),
  ...kinds('cert-expired', ['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'net::ERR_CERT_DATE_INVALID']),
  ...kinds('cert-host', [
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'HOSTNAME_MISMATCH',
    'net::ERR_CERT_COMMON_NAME_INVALID',
  ]),
  ...kinds('cert-revoked', ['CERT_REVOKED', 'net::ERR_CERT_REVOKED']),
  ...kinds('tls-protocol', [
    'EPROTO',
    'ERR_SSL_WRONG_VERSION_NUMBER',
    'ERR_SSL_PACKET_LENGTH_TOO_LONG',
    'net::ERR_SSL_PROTOCOL_ERROR',
    'net::ERR_SSL_VERSION_OR_CIPHER_MISMATCH',
  ]),
])

/** Reasons that concern the proxy's own certificate (an HTTPS proxy), not the service's. */
const PROXY_CERTIFICATE_REASONS: ReadonlySet<string> = new Set([
  'UND_ERR_PRX_TLS',
  'net::ERR_PROXY_CERTIFICATE_INVALID',
])

function kinds(kind: FailureKind, reasons: readonly string[]): Array<[string, FailureKind]> {
  return reasons.map((reason) => [reason, kind])
}

/** Each kind's code and whether the sync's retries apply (a passing glitch) or it fails fast (a retry gets the same). */
const KIND_RULES: ReadonlyMap<FailureKind, { readonly code: ErrorCode; readonly retryable: boolean }> =
  new Map([
    ['proxy-auth', { code: 'proxy-auth', retryable: false }],
    ['proxy-unreachable', { code: 'connection-refused', retryable: true }],
    ['proxy-tunnel', { code: 'connection-refused', retryable: true }],
    ['proxy-config', { code: 'network', retryable: false }],
    ['cert-untrusted', { code: 'certificate', retryable: false }],
    ['cert-expired', { code: 'certificate', retryable: false }],
    ['cert-host', { code: 'certificate', retryable: false }],
    ['cert-revoked', { code: 'certificate', retryable: false }],
    ['tls-protocol', { code: 'network', retryable: false }],
    ['dns', { code: 'host-not-found', retryable: false }],
    ['dns-unavailable', { code: 'host-not-found', retryable: false }],
    ['refused', { code: 'connection-refused', retryable: true }],
    ['timeout', { code: 'timeout', retryable: true }],
    ['reset', { code: 'network', retryable: true }],
    ['offline', { code: 'offline', retryable: false }],
    ['unreachable', { code: 'network', retryable: true }],
    // The service answered, in a way RosterDesk cannot read: tried again once (`MalformedAnswerError`).
    ['headers-too-large', { code: 'service', retryable: true }],
    ['interim-continue', { code: 'service', retryable: true }],
  ])

/**
 * An answer that arrived but that the HTTP client could not read (headers over its limit, an unasked interim
 * 100 Continue): the service's fault, not the network's, and the same answer again on a retry.
 */
export class MalformedAnswerError extends RosterDeskError {
  constructor(message: string, options: { detail: string; cause: unknown }) {
    super('service', message, { retryable: true, ...options })
    this.name = 'MalformedAnswerError'
  }
}

/**
 * The raw reason of a `MalformedAnswerError`, read from its code and detail, so that the error is known as one
 * after it crossed to the core worker as code, message and detail alone (worker-protocol.ts); undefined otherwise.
 */
export function malformedAnswerReason(error: RosterDeskError): string | undefined {
  if (error.code !== 'service') return undefined
  const reason = (error.detail ?? '').split(';')[0] ?? ''
  const kind = REASONS.get(reason)
  return kind === 'headers-too-large' || kind === 'interim-continue' ? reason : undefined
}

/** What the classifier read from an error: the raw reason (or none) and the facts known about it. */
interface ReadFailure {
  readonly reason: string | undefined
  readonly facts: NetworkFailureFacts
  /** A host name or address:port the platform named on its error (the name looked up, the address refused). */
  readonly named: string | undefined
  /** For a proxy's refused tunnel, the HTTP status it answered. */
  readonly proxyStatus: number | undefined
}

/**
 * The one reading of a failed request (no answer at all) as a RosterDeskError whose code and message name the
 * cause: a proxy wanting or refusing credentials, an untrusted/expired/wrong-host certificate (its issuer named
 * when known), a name that does not resolve, a refused connection, no answer in time, the computer offline.
 * Reads undici's errors (TypeError 'fetch failed' with `cause.code`, its ProxyAgent's 407 and tunnel refusals),
 * Electron's (`Error('net::ERR_…')`) and a fetch adapter's NetworkFailureError. `detail` carries the raw reason
 * (never credentials); connection refused/reset and timeouts are retryable, the rest fail fast. An error it
 * cannot place is the generic, retryable 'network' "could not reach".
 */
export function classifyNetworkFailure(
  error: unknown,
  context: { readonly what: string; readonly url: string },
): RosterDeskError {
  const read = readFailure(error)
  const kind = kindOf(read)
  const rule = kind === undefined ? { code: 'network' as const, retryable: true } : KIND_RULES.get(kind)
  const code = rule?.code ?? 'network'
  const retryable = (rule?.retryable ?? true) && !(kind === 'proxy-tunnel' && read.proxyStatus === 403)
  const message = messageFor(kind, read, context)
  if (kind === 'headers-too-large' || kind === 'interim-continue') {
    return new MalformedAnswerError(message, { detail: detailOf(read, error), cause: error })
  }
  return new RosterDeskError(code, message, { retryable, detail: detailOf(read, error), cause: error })
}

/** The raw reason `classifyNetworkFailure` reads from an error ('ECONNREFUSED', 'net::ERR_…', 'proxy-407'), if any. */
export function networkFailureReason(error: unknown): string | undefined {
  return readFailure(error).reason
}

/**
 * What a raw reason concerns, for a fetch adapter deciding what to find out before it throws: a certificate
 * refused (look at the chain), a proxy's answer, the connection itself (DNS, TCP: through a proxy, the proxy's),
 * or anything else.
 */
export function networkFailureConcerns(reason: string): 'certificate' | 'proxy' | 'connect' | 'other' {
  const kind = kindOf({
    reason,
    facts: {},
    named: undefined,
    proxyStatus: /^proxy-\d{3}$/.test(reason) ? 0 : undefined,
  })
  if (
    kind === 'cert-untrusted' ||
    kind === 'cert-expired' ||
    kind === 'cert-host' ||
    kind === 'cert-revoked'
  ) {
    return PROXY_CERTIFICATE_REASONS.has(reason) ? 'proxy' : 'certificate'
  }
  if (kind === 'proxy-auth' || kind === 'proxy-tunnel' || kind === 'proxy-unreachable') return 'proxy'
  if (kind === 'dns' || kind === 'dns-unavailable' || kind === 'refused' || kind === 'unreachable')
    return 'connect'
  if (reason === 'UND_ERR_CONNECT_TIMEOUT' || reason === 'ETIMEDOUT') return 'connect'
  return 'other'
}

function kindOf(read: ReadFailure): FailureKind | undefined {
  if (read.reason === undefined) return undefined
  const known = REASONS.get(read.reason)
  if (known !== undefined) return known
  if (read.proxyStatus !== undefined) return 'proxy-tunnel'
  if (read.reason.startsWith('net::ERR_CERT_')) return 'cert-untrusted'
  if (read.reason.startsWith('net::ERR_SSL_')) return 'tls-protocol'
  if (read.reason.startsWith('net::ERR_PROXY_')) return 'proxy-unreachable'
  return undefined
}

function messageFor(
  kind: FailureKind | undefined,
  read: ReadFailure,
  context: { readonly what: string; readonly url: string },
): string {
  const target = targetOf(context.url)
  const what = context.what
  const proxy = read.facts.proxy === undefined ? 'in use' : proxyLabel(read.facts.proxy)
  // Through a proxy, the client itself connects only to the proxy: a connection-level failure is the proxy's.
  const viaProxy = read.facts.proxy !== undefined && read.facts.host === undefined
  const connected = viaProxy ? `the proxy ${proxy}` : (read.facts.host ?? read.named ?? target.hostPort)
  const lookedUp = viaProxy ? proxy : hostOnly(read.facts.host ?? read.named ?? target.host)
  const setting = viaProxy ? 'proxy setting' : 'service address in Settings'
  // A certificate is the service's (through a proxy's tunnel too), unless the proxy's own was refused.
  const proxyCertificate = PROXY_CERTIFICATE_REASONS.has(read.reason ?? '')
  const certified = proxyCertificate ? `the proxy ${proxy}` : (read.facts.host ?? target.hostPort)
  const cert = read.facts.certificate
  const installHint =
    'If your company inspects secure connections, its certificate must be installed in the operating system, or chosen in Settings → Network (on the command line, --ca-file).'
  switch (kind) {
    case 'proxy-auth':
      return read.facts.proxyAuthRefused === true
        ? `The proxy ${proxy} refused the user name and password given (HTTP 407). Check them, or ask IT whether this account may use the proxy.`
        : `The proxy ${proxy} asks for a user name and password (HTTP 407) and none were given. Sign in to the proxy when RosterDesk asks (on the command line, set ROSTERDESK_PROXY_USER and ROSTERDESK_PROXY_PASSWORD), or ask IT to let ${target.host} through without sign-in.`
    case 'proxy-unreachable':
      return `RosterDesk could not connect to the proxy ${proxy}. Check the proxy setting (Settings → Network, or HTTPS_PROXY on the command line) and the network connection.`
    case 'proxy-tunnel':
      return read.proxyStatus === 403
        ? `The proxy ${proxy} refused to connect to ${target.hostPort} (HTTP 403): it may block the service. Ask IT to allow ${target.host}.`
        : `The proxy ${proxy} could not open a connection to ${target.hostPort}${read.proxyStatus === undefined ? '' : ` (HTTP ${read.proxyStatus})`}. Check the service address; if it is right, ask IT whether the proxy allows ${target.host}.`
    case 'proxy-config':
      return `The network's proxy configuration (a PAC file or the proxy setting) could not be used to reach ${what}. Check Settings → Network, or ask IT.`
    case 'cert-untrusted':
      return `The certificate of ${certified} is not trusted${cert === undefined ? '' : ` (issued by ${cert.issuer})`}. ${cert?.why === undefined ? '' : `The extra certificates file does not vouch for it: ${cert.why} `}${installHint}`
    case 'cert-expired':
      return `The certificate of ${certified}${cert === undefined ? '' : `, issued by ${cert.issuer},`} has expired${cert?.validTo === undefined ? '' : ` (valid until ${cert.validTo})`} or is not valid yet. Check this computer's date and time; otherwise the service's owner must renew it.`
    case 'cert-host':
      return `The certificate presented for ${target.host} is for another host name${cert === undefined ? '' : ` (${cert.subject}, issued by ${cert.issuer})`}. Check the service address in Settings. ${installHint}`
    case 'cert-revoked':
      return `The certificate of ${certified}${cert === undefined ? '' : `, issued by ${cert.issuer},`} has been revoked. Ask the service's owner or IT.`
    case 'tls-protocol':
      return `RosterDesk could not set up a secure connection with ${certified}: the address may point to a port that does not speak HTTPS, or something on the way interferes. Check the service address.`
    case 'dns':
      return `The host name ${lookedUp} does not resolve. Check the ${setting} and the network connection.`
    case 'dns-unavailable':
      return `The host name ${lookedUp} could not be looked up: the network's name service (DNS) did not answer. Check the network connection.`
    case 'refused':
      return `The connection to ${connected} was refused: nothing accepts connections there, or a firewall blocks it. Check the ${setting}.`
    case 'timeout':
      return `${capitalise(what)} did not answer in time (${viaProxy ? `through the proxy ${proxy}` : connected}). Check the connection and try again.`
    case 'reset':
      return `The connection to ${what} was cut (${connected}). Check the connection and try again.`
    case 'offline':
      return `This computer is offline. Connect to a network, then sync again.`
    case 'headers-too-large':
      return `${capitalise(what)} answered with headers larger than RosterDesk reads, so its answer could not be read. Tell the payroll service’s administrator, or IT if a proxy or gateway on the way adds headers.`
    case 'interim-continue':
      return `${capitalise(what)} sent an interim “100 Continue” answer RosterDesk did not ask for before its answer, and RosterDesk cannot read past it here. Tell the payroll service’s administrator, or IT if a proxy or gateway on the way sends it.`
    case 'unreachable':
    case undefined:
      return `RosterDesk could not reach ${what}. Check the network connection and the service address, then try again.`
  }
}

/** Reads the reason and facts from a NetworkFailureError, undici's errors or Electron's, walking `cause` chains. */
function readFailure(error: unknown): ReadFailure {
  let facts: NetworkFailureFacts = {}
  let reason: string | undefined
  let named: string | undefined
  let proxyStatus: number | undefined
  const seen = new Set<unknown>()
  const queue: unknown[] = [error]
  while (queue.length > 0 && seen.size < 16) {
    const current = queue.shift()
    if (current === null || typeof current !== 'object' || seen.has(current)) continue
    seen.add(current)
    if (current instanceof NetworkFailureError) {
      facts = { ...current.facts, ...facts }
      reason ??= current.reason
      const status = /^proxy-(\d{3})$/.exec(current.reason)?.[1]
      if (status !== undefined) proxyStatus ??= Number(status)
    }
    const message = current instanceof Error ? current.message : ''
    const net = /\bnet::ERR_[A-Z0-9_]+/.exec(message)?.[0]
    const tunnel = /Proxy response \((\d{3})\)/.exec(message)?.[1]
    if (reason === undefined && net !== undefined) reason = net
    if (reason === undefined && tunnel !== undefined) {
      proxyStatus = Number(tunnel)
      reason = `proxy-${tunnel}`
    }
    if (reason === undefined && /Proxy Authentication Required/i.test(message)) reason = 'proxy-407'
    const code = stringField(current, 'code')
    if (reason === undefined && code === 'UND_ERR_SOCKET' && message === 'bad response') {
      reason = UNASKED_CONTINUE_REASON
    }
    if (reason === undefined && code !== undefined && !GENERIC_CODES.has(code)) reason = code
    named ??= namedHost(current)
    queue.push((current as { cause?: unknown }).cause)
    const errors = (current as { errors?: unknown }).errors
    if (Array.isArray(errors)) queue.push(...(errors as unknown[]))
  }
  return { reason, facts, named, proxyStatus }
}

/** Codes that say nothing about the network (undici's wrappers): the cause underneath is read instead. */
const GENERIC_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_ABORTED',
  'UND_ERR_INVALID_ARG',
  'UND_ERR_CONNECT',
  'ABORT_ERR',
])

function namedHost(value: object): string | undefined {
  const hostname = stringField(value, 'hostname')
  if (hostname !== undefined) return hostname
  const address = stringField(value, 'address')
  const port = (value as { port?: unknown }).port
  if (address === undefined) return undefined
  const host = address.includes(':') ? `[${address}]` : address
  return typeof port === 'number' ? `${host}:${port}` : host
}

function stringField(value: object, name: string): string | undefined {
  const field = (value as Record<string, unknown>)[name]
  return typeof field === 'string' && field !== '' ? field : undefined
}

/** The log's detail: the raw reason and the facts, never a credential. */
function detailOf(read: ReadFailure, error: unknown): string {
  const parts = [read.reason ?? (error instanceof Error ? error.name : 'network error')]
  if (read.facts.proxy !== undefined) parts.push(`proxy ${proxyLabel(read.facts.proxy)}`)
  if (read.facts.host !== undefined) parts.push(`host ${read.facts.host}`)
  else if (read.named !== undefined) parts.push(`host ${read.named}`)
  const cert = read.facts.certificate
  if (cert !== undefined) {
    parts.push(`certificate subject ${cert.subject}, issuer ${cert.issuer}`)
    if (cert.validTo !== undefined) parts.push(`valid to ${cert.validTo}`)
  }
  if (read.facts.proxyAuthRefused !== undefined)
    parts.push(read.facts.proxyAuthRefused ? 'credentials refused' : 'no credentials')
  return parts.join('; ')
}

/** A proxy as host:port for messages and logs: a URL's user name and password are dropped. */
export function proxyLabel(proxy: string): string {
  try {
    const url = new URL(proxy.includes('://') ? proxy : `http://${proxy}`)
    const port = url.port === '' ? defaultPort(url.protocol) : url.port
    return `${url.hostname}:${port}`
  } catch {
    const at = proxy.lastIndexOf('@')
    return at === -1 ? proxy : proxy.slice(at + 1)
  }
}

function targetOf(url: string): { host: string; hostPort: string } {
  try {
    const parsed = new URL(url)
    const port = parsed.port === '' ? defaultPort(parsed.protocol) : parsed.port
    return { host: parsed.hostname, hostPort: `${parsed.hostname}:${port}` }
  } catch {
    return { host: 'the service', hostPort: 'the service' }
  }
}

function hostOnly(host: string): string {
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(host)
  if (bracket?.[1] !== undefined) return bracket[1]
  return host.replace(/:\d+$/, '')
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80'
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
