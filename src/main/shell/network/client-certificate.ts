import type { Logger } from '../../core/log/logger'
import type { ClientCertificateName } from '../../core/settings/network-settings'

/**
 * A certificate of the OS's store as Electron offers it in 'select-client-certificate' (electron 45:
 * shell/common/gin_converters/net_converter.cc, `Converter<scoped_refptr<net::X509Certificate>>::ToV8`):
 * `subjectName` and `issuerName` are the names' display names (the common name, else the first organisation,
 * else the first unit: net::CertPrincipal::GetDisplayName), the dates in seconds since 1970.
 */
export interface OfferedCertificate {
  readonly data: string
  readonly subjectName: string
  readonly issuerName: string
  readonly validStart: number
  readonly validExpiry: number
}

/**
 * Main's answer to app's 'select-client-certificate' (issue 31, point 9; decision 051). Electron emits it on `app`
 * for every request whose server asks for a client certificate while the OS's store holds one: the window's, main's
 * own `net` (the updater's session) and a utility process forked with respondToAuthRequestsFromMainProcess (the
 * core's), with `webContents` null for the last two and `url` the server's host:port (electron 45:
 * shell/browser/net/client_certificate_responder_delegate.cc, SelectClientCertificateForResponder;
 * shell/browser/api/electron_api_app.cc, App::SelectClientCertificate; lib/browser/api/app.ts routes it on to a
 * webContents when there is one). Not prevented, Electron sends the store's first certificate and unlocks its key
 * (a smart card's PIN prompt during a background sync): so every request is prevented here, and answered with
 * none unless the profile (or the machine policy) names a certificate and the server asking is the profile's
 * service. Then the certificate is the one whose subject and issuer are those named (ignoring case), valid now,
 * the one valid longest when there are several (a renewed card beside the old one). The event names no session,
 * so the host alone decides: the update feed, a redirect elsewhere and the window get none.
 */
export class ClientCertificateChoice {
  #named: ClientCertificateName | undefined

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The profile's certificate from now on (NetworkToApply's `clientCertificate`), or undefined for none. */
  set(named: ClientCertificateName | undefined): void {
    this.#named = named === undefined ? undefined : { ...named, host: named.host.toLowerCase() }
  }

  /** The listener, with Electron's arguments (event, webContents, url, certificateList, callback). */
  readonly onSelect = <C extends OfferedCertificate>(
    event: { preventDefault(): void },
    webContents: unknown,
    url: string,
    certificates: readonly C[],
    callback: (certificate?: C) => void,
  ): void => {
    event.preventDefault()
    const chosen = webContents === null ? this.choose(url, certificates) : undefined
    if (chosen === undefined) callback()
    else callback(chosen)
  }

  /** The certificate sent to `url` (host:port) from those offered, or undefined for none; logged either way. */
  choose<C extends OfferedCertificate>(url: string, certificates: readonly C[]): C | undefined {
    const host = url.toLowerCase()
    const named = this.#named
    if (named === undefined) {
      this.logger.info(`${url} asked for a client certificate; none is named in Settings, so none was sent`)
      return undefined
    }
    if (host !== named.host) {
      this.logger.info(
        `${url} asked for a client certificate; it is not the profile's service, so none was sent`,
      )
      return undefined
    }
    const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()
    const now = this.now() / 1000
    const [chosen] = certificates
      .filter((offered) => same(offered.subjectName, named.subject) && same(offered.issuerName, named.issuer))
      .filter((offered) => offered.validStart <= now && now <= offered.validExpiry)
      .sort((a, b) => b.validExpiry - a.validExpiry)
    if (chosen === undefined) {
      this.logger.warn(
        `${url} asked for a client certificate; none valid issued to "${named.subject}" by "${named.issuer}" is in this computer's certificate store (${certificates.length} offered)`,
      )
      return undefined
    }
    this.logger.info(
      `${url} asked for a client certificate; sent "${named.subject}" issued by "${named.issuer}"`,
    )
    return chosen
  }
}
