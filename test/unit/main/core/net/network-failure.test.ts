import { describe, expect, it } from 'vitest'
import type { IpcErrorCode } from '../../../../../src/shared/ipc-error-codes'
import {
  classifyNetworkFailure,
  MalformedAnswerError,
  NetworkFailureError,
  proxyLabel,
} from '../../../../../src/main/core/net/network-failure'

const context = { what: 'the payroll service', url: 'https://payroll.example:8443/api/employees' }

/** undici's shape: TypeError('fetch failed') with the system or TLS error on `cause`. */
function undici(code: string, extra: Record<string, unknown> = {}): TypeError {
  return new TypeError('fetch failed', {
    cause: Object.assign(new Error(`${code} failure`), { code }, extra),
  })
}

/** Electron's shape: net.fetch rejects with Error('net::ERR_…'). */
function electron(name: string): Error {
  return new Error(`net::${name}`)
}

interface Row {
  readonly name: string
  readonly error: unknown
  readonly code: IpcErrorCode
  readonly retryable: boolean
  readonly message: RegExp
}

const rows: readonly Row[] = [
  // undici / Node
  {
    name: 'ENOTFOUND',
    error: undici('ENOTFOUND', { hostname: 'payroll.example' }),
    code: 'host-not-found',
    retryable: false,
    message: /^The host name payroll\.example does not resolve\./,
  },
  {
    name: 'EAI_AGAIN',
    error: undici('EAI_AGAIN', { hostname: 'payroll.example' }),
    code: 'host-not-found',
    retryable: false,
    message: /payroll\.example could not be looked up.*DNS/,
  },
  {
    name: 'ECONNREFUSED',
    error: undici('ECONNREFUSED', { address: '10.0.0.5', port: 8443 }),
    code: 'connection-refused',
    retryable: true,
    message: /^The connection to 10\.0\.0\.5:8443 was refused/,
  },
  {
    name: 'ECONNRESET',
    error: undici('ECONNRESET'),
    code: 'network',
    retryable: true,
    message: /^The connection to the payroll service was cut \(payroll\.example:8443\)/,
  },
  {
    name: 'ETIMEDOUT',
    error: undici('ETIMEDOUT'),
    code: 'timeout',
    retryable: true,
    message: /did not answer in time \(payroll\.example:8443\)/,
  },
  {
    name: 'UND_ERR_CONNECT_TIMEOUT',
    error: undici('UND_ERR_CONNECT_TIMEOUT'),
    code: 'timeout',
    retryable: true,
    message: /did not answer in time/,
  },
  {
    name: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    error: undici('UNABLE_TO_GET_ISSUER_CERT_LOCALLY'),
    code: 'certificate',
    retryable: false,
    message:
      /^The certificate of payroll\.example:8443 is not trusted\. If your company inspects secure connections, its certificate must be installed in the operating system, or chosen in Settings → Network \(on the command line, --ca-file\)\.$/,
  },
  {
    name: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    error: undici('UNABLE_TO_VERIFY_LEAF_SIGNATURE'),
    code: 'certificate',
    retryable: false,
    message: /is not trusted/,
  },
  {
    name: 'SELF_SIGNED_CERT_IN_CHAIN',
    error: undici('SELF_SIGNED_CERT_IN_CHAIN'),
    code: 'certificate',
    retryable: false,
    message: /is not trusted/,
  },
  {
    name: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    error: undici('DEPTH_ZERO_SELF_SIGNED_CERT'),
    code: 'certificate',
    retryable: false,
    message: /is not trusted/,
  },
  {
    name: 'CERT_HAS_EXPIRED',
    error: undici('CERT_HAS_EXPIRED'),
    code: 'certificate',
    retryable: false,
    message: /has expired/,
  },
  {
    name: 'ERR_TLS_CERT_ALTNAME_INVALID',
    error: undici('ERR_TLS_CERT_ALTNAME_INVALID', { host: 'payroll.example' }),
    code: 'certificate',
    retryable: false,
    message: /^The certificate presented for payroll\.example is for another host name/,
  },
  {
    name: 'ERR_SSL_WRONG_VERSION_NUMBER',
    error: undici('ERR_SSL_WRONG_VERSION_NUMBER'),
    code: 'network',
    retryable: false,
    message: /could not set up a secure connection/,
  },
  {
    name: 'ProxyAgent tunnel 407',
    error: new TypeError('fetch failed', {
      cause: Object.assign(new Error('Proxy response (407) !== 200 when HTTP Tunneling'), {
        name: 'AbortError',
        code: 'UND_ERR_ABORTED',
      }),
    }),
    code: 'proxy-auth',
    retryable: false,
    message: /^The proxy in use asks for a user name and password \(HTTP 407\)/,
  },
  {
    name: 'ProxyAgent plain 407',
    error: new TypeError('fetch failed', {
      cause: Object.assign(new Error('Proxy Authentication Required (407)'), { code: 'UND_ERR_INVALID_ARG' }),
    }),
    code: 'proxy-auth',
    retryable: false,
    message: /asks for a user name and password/,
  },
  {
    name: 'ProxyAgent tunnel 403',
    error: new TypeError('fetch failed', {
      cause: Object.assign(new Error('Proxy response (403) !== 200 when HTTP Tunneling'), {
        code: 'UND_ERR_ABORTED',
      }),
    }),
    code: 'connection-refused',
    retryable: false,
    message: /refused to connect to payroll\.example:8443 \(HTTP 403\).*allow payroll\.example/,
  },
  {
    name: 'ProxyAgent tunnel 502',
    error: new TypeError('fetch failed', {
      cause: Object.assign(new Error('Proxy response (502) !== 200 when HTTP Tunneling'), {
        code: 'UND_ERR_ABORTED',
      }),
    }),
    code: 'connection-refused',
    retryable: true,
    message: /could not open a connection to payroll\.example:8443 \(HTTP 502\)/,
  },
  {
    name: 'no code at all',
    error: new TypeError('fetch failed'),
    code: 'network',
    retryable: true,
    message: /^RosterDesk could not reach the payroll service\./,
  },
  // Electron / Chromium
  {
    name: 'ERR_NAME_NOT_RESOLVED',
    error: electron('ERR_NAME_NOT_RESOLVED'),
    code: 'host-not-found',
    retryable: false,
    message: /^The host name payroll\.example does not resolve/,
  },
  {
    name: 'ERR_CONNECTION_REFUSED',
    error: electron('ERR_CONNECTION_REFUSED'),
    code: 'connection-refused',
    retryable: true,
    message: /payroll\.example:8443 was refused/,
  },
  {
    name: 'ERR_CONNECTION_TIMED_OUT',
    error: electron('ERR_CONNECTION_TIMED_OUT'),
    code: 'timeout',
    retryable: true,
    message: /did not answer in time/,
  },
  {
    name: 'ERR_TIMED_OUT',
    error: electron('ERR_TIMED_OUT'),
    code: 'timeout',
    retryable: true,
    message: /did not answer in time/,
  },
  {
    name: 'ERR_INTERNET_DISCONNECTED',
    error: electron('ERR_INTERNET_DISCONNECTED'),
    code: 'offline',
    retryable: false,
    message: /^This computer is offline\./,
  },
  {
    name: 'ERR_NETWORK_CHANGED',
    error: electron('ERR_NETWORK_CHANGED'),
    code: 'network',
    retryable: true,
    message: /was cut/,
  },
  {
    name: 'ERR_PROXY_CONNECTION_FAILED',
    error: electron('ERR_PROXY_CONNECTION_FAILED'),
    code: 'connection-refused',
    retryable: true,
    message: /could not connect to the proxy/,
  },
  {
    name: 'ERR_TUNNEL_CONNECTION_FAILED',
    error: electron('ERR_TUNNEL_CONNECTION_FAILED'),
    code: 'connection-refused',
    retryable: true,
    message: /could not open a connection to payroll\.example:8443\./,
  },
  {
    name: 'ERR_PROXY_AUTH_UNSUPPORTED',
    error: electron('ERR_PROXY_AUTH_UNSUPPORTED'),
    code: 'proxy-auth',
    retryable: false,
    message: /HTTP 407/,
  },
  {
    name: 'ERR_PROXY_AUTH_REQUESTED',
    error: electron('ERR_PROXY_AUTH_REQUESTED'),
    code: 'proxy-auth',
    retryable: false,
    message: /HTTP 407/,
  },
  {
    name: 'ERR_CERT_AUTHORITY_INVALID',
    error: electron('ERR_CERT_AUTHORITY_INVALID'),
    code: 'certificate',
    retryable: false,
    message: /is not trusted.*Settings → Network/,
  },
  {
    name: 'ERR_CERT_DATE_INVALID',
    error: electron('ERR_CERT_DATE_INVALID'),
    code: 'certificate',
    retryable: false,
    message: /has expired or is not valid yet/,
  },
  {
    name: 'ERR_CERT_COMMON_NAME_INVALID',
    error: electron('ERR_CERT_COMMON_NAME_INVALID'),
    code: 'certificate',
    retryable: false,
    message: /for another host name/,
  },
  {
    name: 'ERR_CERT_INVALID',
    error: electron('ERR_CERT_INVALID'),
    code: 'certificate',
    retryable: false,
    message: /is not trusted/,
  },
  {
    name: 'ERR_CERT_WEAK_KEY (an unlisted ERR_CERT_)',
    error: electron('ERR_CERT_WEAK_KEY'),
    code: 'certificate',
    retryable: false,
    message: /is not trusted/,
  },
  {
    name: 'ERR_SSL_PROTOCOL_ERROR',
    error: electron('ERR_SSL_PROTOCOL_ERROR'),
    code: 'network',
    retryable: false,
    message: /secure connection/,
  },
]

/** Answers the service sent that the HTTP client could not read (issue 32): the service's, tried twice. */
const malformedAnswers: readonly Row[] = [
  {
    name: 'UND_ERR_HEADERS_OVERFLOW',
    error: new TypeError('fetch failed', {
      cause: Object.assign(new Error('Headers Overflow Error'), { code: 'UND_ERR_HEADERS_OVERFLOW' }),
    }),
    code: 'service',
    retryable: true,
    message:
      /^The payroll service answered with headers larger than RosterDesk reads, so its answer could not be read\./,
  },
  {
    name: 'net::ERR_RESPONSE_HEADERS_TOO_BIG',
    error: electron('ERR_RESPONSE_HEADERS_TOO_BIG'),
    code: 'service',
    retryable: true,
    message: /^The payroll service answered with headers larger than RosterDesk reads/,
  },
  {
    name: 'UND_ERR_SOCKET bad response (an unasked 100 Continue)',
    error: new TypeError('fetch failed', {
      cause: Object.assign(new Error('bad response'), { code: 'UND_ERR_SOCKET' }),
    }),
    code: 'service',
    retryable: true,
    message:
      /^The payroll service sent an interim “100 Continue” answer RosterDesk did not ask for before its answer, and RosterDesk cannot read past it here\./,
  },
]

describe('classifyNetworkFailure', () => {
  it.each(malformedAnswers)('$name → an answer RosterDesk cannot read', (row) => {
    const error = classifyNetworkFailure(row.error, context)
    expect(error).toBeInstanceOf(MalformedAnswerError)
    expect(error).toMatchObject({ code: row.code, retryable: row.retryable })
    expect(error.message).toMatch(row.message)
    expect(error.message).not.toMatch(/could not reach|was cut/)
  })

  it('still reads undici’s other socket errors as a cut connection', () => {
    const closed = new TypeError('fetch failed', {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    })
    expect(classifyNetworkFailure(closed, context).message).toMatch(/was cut/)
  })

  it.each(rows)('$name → $code', (row) => {
    const error = classifyNetworkFailure(row.error, context)
    expect(error).toMatchObject({ name: 'RosterDeskError', code: row.code, retryable: row.retryable })
    expect(error.message).toMatch(row.message)
    expect(error.cause).toBe(row.error)
  })

  it('keeps the raw reason in the detail', () => {
    expect(classifyNetworkFailure(undici('ECONNREFUSED'), context).detail).toBe('ECONNREFUSED')
    expect(classifyNetworkFailure(electron('ERR_CERT_DATE_INVALID'), context).detail).toBe(
      'net::ERR_CERT_DATE_INVALID',
    )
  })

  it('reads a refused connection from the AggregateError of Node’s address attempts', () => {
    const both = new AggregateError(
      [
        Object.assign(new Error('connect ECONNREFUSED ::1:8443'), { code: 'ECONNREFUSED' }),
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8443'), { code: 'ECONNREFUSED' }),
      ],
      '',
    )
    const error = classifyNetworkFailure(new TypeError('fetch failed', { cause: both }), context)
    expect(error.code).toBe('connection-refused')
  })

  it('names the issuer and validity the adapter saw on a refused certificate', () => {
    const certificate = {
      subject: 'payroll.example',
      issuer: 'Zscaler Root CA',
      validTo: 'Jan  1 00:00:00 2024 GMT',
    }
    const untrusted = classifyNetworkFailure(
      new NetworkFailureError('UNABLE_TO_GET_ISSUER_CERT_LOCALLY', { certificate }),
      context,
    )
    expect(untrusted.message).toMatch(
      /^The certificate of payroll\.example:8443 is not trusted \(issued by Zscaler Root CA\)\./,
    )
    expect(untrusted.detail).toContain('issuer Zscaler Root CA')
    const expired = classifyNetworkFailure(
      new NetworkFailureError('CERT_HAS_EXPIRED', { certificate }),
      context,
    )
    expect(expired.message).toMatch(
      /issued by Zscaler Root CA, has expired \(valid until Jan {2}1 00:00:00 2024 GMT\)/,
    )
    const wrongHost = classifyNetworkFailure(
      new NetworkFailureError('ERR_TLS_CERT_ALTNAME_INVALID', {
        certificate: { subject: 'other.example', issuer: 'Test CA' },
      }),
      context,
    )
    expect(wrongHost.message).toMatch(/for another host name \(other\.example, issued by Test CA\)/)
  })

  it('says why the extra certificates file did not vouch for a refused chain, when main’s check said', () => {
    const why =
      '“Helpdesk laptop” issued “payroll.example” but is not a certificate authority (its basic constraints do not say CA:TRUE).'
    const refused = classifyNetworkFailure(
      new NetworkFailureError('net::ERR_CERT_AUTHORITY_INVALID', {
        certificate: { subject: 'payroll.example', issuer: 'Company Root CA', why },
      }),
      context,
    )
    expect(refused.message).toContain(
      `is not trusted (issued by Company Root CA). The extra certificates file does not vouch for it: ${why} If your company`,
    )
  })

  it('tells a proxy that wants credentials from one that refused those given, naming it without them', () => {
    const proxy = 'http://clerk:s3cret@proxy.corp.example:8080'
    const wants = classifyNetworkFailure(
      new NetworkFailureError('proxy-407', { proxy, proxyAuthRefused: false }),
      context,
    )
    expect(wants).toMatchObject({ code: 'proxy-auth', retryable: false })
    expect(wants.message).toMatch(/^The proxy proxy\.corp\.example:8080 asks for a user name and password/)
    expect(wants.message).toContain('ROSTERDESK_PROXY_USER')
    const refused = classifyNetworkFailure(
      new NetworkFailureError('proxy-407', { proxy, proxyAuthRefused: true }),
      context,
    )
    expect(refused.message).toMatch(
      /^The proxy proxy\.corp\.example:8080 refused the user name and password given/,
    )
    for (const error of [wants, refused]) {
      expect(`${error.message} ${error.detail ?? ''}`).not.toMatch(/clerk|s3cret/)
    }
  })

  it('puts a connection failure through a proxy on the proxy, and a certificate on the service', () => {
    const facts = { proxy: 'proxy.corp.example:3128' }
    const refused = classifyNetworkFailure(new NetworkFailureError('ECONNREFUSED', facts), context)
    expect(refused.message).toMatch(
      /^The connection to the proxy proxy\.corp\.example:3128 was refused.*proxy setting/,
    )
    const unknown = classifyNetworkFailure(new NetworkFailureError('ENOTFOUND', facts), context)
    expect(unknown.message).toMatch(/^The host name proxy\.corp\.example:3128 does not resolve/)
    const untrusted = classifyNetworkFailure(
      new NetworkFailureError('SELF_SIGNED_CERT_IN_CHAIN', facts),
      context,
    )
    expect(untrusted.message).toMatch(/^The certificate of payroll\.example:8443 is not trusted/)
  })

  it('labels a proxy as host:port, never with its credentials', () => {
    expect(proxyLabel('http://u:p@proxy.example:8080/')).toBe('proxy.example:8080')
    expect(proxyLabel('https://proxy.example')).toBe('proxy.example:443')
    expect(proxyLabel('proxy.example:3128')).toBe('proxy.example:3128')
  })
})
