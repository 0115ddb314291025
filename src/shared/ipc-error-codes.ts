/**
 * The codes an IpcError may carry. Zod-free, like ipc-channels.ts, so the renderer can check a code it reads from
 * data (a stored run's `errorCode`) without bundling the contract's schemas; `ipc-contract.ts` builds its enum
 * from this list.
 */
export const IPC_ERROR_CODES = [
  'validation',
  'not-signed-in',
  'auth',
  'network',
  'service',
  'busy',
  'cancelled',
  'storage',
  'not-found',
  'config',
  'internal',
  // The machine, not the service: a full disk (free space needed and where) and a damaged cache set aside.
  'disk-full',
  'damaged-cache',
  // The way to the service (issue 22), each said as what it is rather than "could not reach": a proxy that wants
  // credentials or refused the ones given; a certificate not trusted (issuer named), expired, or for another
  // host; a host name that does not resolve; a refused connection; no answer in time; the computer offline; a
  // web page (captive portal, proxy block page) where JSON was expected.
  'proxy-auth',
  'certificate',
  'host-not-found',
  'connection-refused',
  'timeout',
  'offline',
  'web-page',
  // Forbidden by the organisation's machine policy (issue 25): a CSV export where only Excel is allowed, an export
  // over the most rows allowed. The message says the rule; nothing the clerk retries will change it.
  'not-allowed',
] as const

export type IpcErrorCode = (typeof IPC_ERROR_CODES)[number]

export function isIpcErrorCode(value: unknown): value is IpcErrorCode {
  return typeof value === 'string' && (IPC_ERROR_CODES as readonly string[]).includes(value)
}

/**
 * The codes that mean the service could not be reached at all (not that it answered badly): the window shows
 * itself offline for them, and a sync that ended with one of them is said to have lost its connection.
 */
export const UNREACHABLE_ERROR_CODES: readonly IpcErrorCode[] = [
  'network',
  'host-not-found',
  'connection-refused',
  'timeout',
  'offline',
]

export function isUnreachableErrorCode(value: unknown): boolean {
  return typeof value === 'string' && (UNREACHABLE_ERROR_CODES as readonly string[]).includes(value)
}

/**
 * The unreachable codes that are the clerk's own network, not the service: the computer offline, or a name that
 * does not resolve. Only these (and the OS saying it is offline) make the window say "Offline"; a refused
 * connection or no answer in time is the service not answering, said as that (decision 057).
 */
export const OWN_NETWORK_ERROR_CODES: readonly IpcErrorCode[] = ['offline', 'host-not-found']

export function isOwnNetworkErrorCode(value: unknown): boolean {
  return typeof value === 'string' && (OWN_NETWORK_ERROR_CODES as readonly string[]).includes(value)
}
