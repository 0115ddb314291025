import type { CertificateSummary, ConnectionReport } from '../../../shared/connection-report-schema'
import type { AccessTokenSource } from '../api/access-token-source'
import type { FetchLike } from '../api/fetch-like'
import type { Clock } from '../clock'
import type { RosterDeskError } from '../errors'
import type { Logger } from '../log/logger'

/**
 * What a connection check (connection-check.ts) is given: the address and registration to try, the runtime's
 * request function and clock, and what the runtime lets it see of the network (its probes).
 */

/** How the base URL is reached, as the runtime resolved it. */
export type ProxyRoute =
  | {
      readonly kind: 'direct'
      /** Why direct, in words: "no proxy in the environment", "--proxy none", "Electron resolved DIRECT". */
      readonly source: string
    }
  | {
      readonly kind: 'proxy'
      /** The proxy's address, scheme://host:port (credentials are stripped again before it is shown). */
      readonly url: string
      /** Where it came from: "HTTPS_PROXY", "--proxy", "the profile's setting", "Electron (PAC)". */
      readonly source: string
    }

/** A name resolved: the addresses found, in the resolver's order. */
export interface DnsAnswer {
  readonly addresses: readonly string[]
}

/** A TCP connection opened (and closed again): the address it reached. */
export interface TcpAnswer {
  readonly address: string
}

/**
 * A TLS handshake as far as it got. `trusted` false with the chain seen and `problem` (a 'certificate' error
 * naming the issuer, or the expiry or host-name mismatch) when the chain is not accepted; a probe throws only
 * when no chain was seen at all (refused, reset, a proxy refusing the tunnel).
 */
export interface TlsAnswer {
  /** The chain as presented, leaf first. */
  readonly certificates: readonly CertificateSummary[]
  readonly trusted: boolean
  /** The set the chain was checked against, in words: "Node's bundled list, the OS store and ca.pem". */
  readonly trustSet: string
  /** "TLSv1.3", when known. */
  readonly protocol?: string
  readonly problem?: RosterDeskError
}

/**
 * What a runtime lets the check see of the network. The CLI implements every probe with Node's dns, net and tls
 * (through a proxy: TLS through its CONNECT tunnel, so the chain is the one an inspecting proxy presents); the app
 * implements `proxy` with Electron's resolution and `certificates` from its verify proc, and leaves DNS, TCP and
 * TLS to Electron's network stack (those steps are then skipped with `unseen`). Probes throw RosterDeskError (or
 * a Node error, classified here) when they fail.
 */
export interface ConnectionProbes {
  readonly runtime: ConnectionReport['runtime']
  /** The proxy the base URL goes through, or direct. */
  proxy(url: string): Promise<ProxyRoute>
  /** Resolves a host name. */
  dns?(host: string): Promise<DnsAnswer>
  /** Opens and closes a TCP connection. */
  tcp?(host: string, port: number): Promise<TcpAnswer>
  /** A TLS handshake with `host:port`, through `route`'s proxy when it is one; SNI and the name checked are `host`. */
  tls?(host: string, port: number, route: ProxyRoute): Promise<TlsAnswer>
  /** The certificates the runtime saw for the last request to `url` (the app's verify proc), when it knows. */
  certificates?(url: string): Promise<readonly CertificateSummary[] | undefined>
  /** Why DNS, TCP and TLS are not shown when the probes are absent ("Electron's network stack does these itself"). */
  readonly unseen?: string
}

/** What the check runs against: one service address and the registration sign-in would use. */
export interface ConnectionTarget {
  readonly baseUrl: string
  /** The profile's name, when a profile is checked (shown in the report). */
  readonly profile?: string
  readonly clientId: string
  readonly redirectUri: string
  /** Space- or comma-separated, as sign-in sends them. */
  readonly scopes: string
  /** Sent as the tenant header of the list request when not empty. */
  readonly tenantId: string
  /** Given only when signed in: the list step asks for one page with it; otherwise that step is skipped. */
  readonly tokens?: AccessTokenSource
  /** Per request, headers and body; the sync's default when absent. */
  readonly timeoutMs?: number
  /** The locale its counts are written in (the profile's regional formats); FALLBACK_FORMAT_LOCALE when absent. */
  readonly locale?: string
}

/** Taken once: the request function (the runtime's network stack), the clock that times the steps, the probes. */
export interface ConnectionCheckDeps {
  readonly fetch: FetchLike
  readonly clock: Clock
  readonly probes: ConnectionProbes
  /** Stops the check: the running request ends and the step fails as cancelled. */
  readonly signal?: AbortSignal
  /** Told each failed step with its error (the detail the report leaves out), at warn. */
  readonly logger?: Logger
}
