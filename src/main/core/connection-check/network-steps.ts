import type { ConnectionStep } from '../../../shared/connection-report-schema'
import { RosterDeskError } from '../errors'
import { NetworkFailureError, networkFailureReason } from '../net/network-failure'
import type { ConnectionCheckDeps, ProxyRoute } from './check-inputs'
import { failed, ok, skipped, timedStep } from './step-outcome'

/** The way to the service below HTTP: DNS, TCP and TLS, as far as the runtime's probes let the check see them. */

/** What the previous steps decided for the next ones. */
export interface Progress {
  route: ProxyRoute | undefined
  /** Set when the way is known to be blocked before the service (a direct route whose DNS, TCP or TLS failed). */
  blocked: string | undefined
}

/** The DNS, TCP and TLS steps: of the service's host when direct, of the proxy's when one is in use. */
export async function networkSteps(
  deps: ConnectionCheckDeps,
  base: URL,
  progress: Progress,
): Promise<ConnectionStep[]> {
  const { probes } = deps
  const route = progress.route
  const serviceHost = hostOf(base)
  const servicePort = portOf(base)
  const viaProxy = route?.kind === 'proxy' ? new URL(route.url) : undefined
  const host = viaProxy === undefined ? serviceHost : hostOf(viaProxy)
  const port = viaProxy === undefined ? servicePort : portOf(viaProxy)
  const who = viaProxy === undefined ? '' : 'proxy '
  // What a probe's failure is said about: the proxy's host when one is in use, else the service's.
  const probeUrl = `${viaProxy?.protocol ?? base.protocol}//${viaProxy?.host ?? base.host}`
  const dnsLabel = `DNS: ${who}${host}`
  const tcpLabel = `TCP: ${who}${host}:${port}`
  const tlsLabel = `TLS: ${serviceHost}:${servicePort}${viaProxy === undefined ? '' : ` through the proxy`}`
  const unseen =
    probes.unseen ?? 'Not visible here: the network stack resolves, connects and checks certificates itself.'
  const steps: ConnectionStep[] = []
  const direct = viaProxy === undefined

  if (route === undefined) {
    const reason = 'The proxy in use is not known (see the proxy step).'
    return [
      skipped('dns', dnsLabel, reason),
      skipped('tcp', tcpLabel, reason),
      skipped('tls', tlsLabel, reason),
    ]
  }
  const dns = probes.dns
  const dnsStep =
    dns === undefined
      ? skipped('dns', dnsLabel, unseen)
      : await timedStep(deps, 'dns', dnsLabel, probeUrl, async () => {
          const answer = await dns(host).catch(aboutProxy(route))
          const addresses = answer.addresses.join(', ')
          return ok(
            direct
              ? `resolves to ${addresses}`
              : `the proxy's host resolves to ${addresses} (the proxy looks up ${serviceHost} itself)`,
          )
        })
  steps.push(dnsStep)
  const tcp = probes.tcp
  let tcpStep: ConnectionStep
  if (dnsStep.state === 'failed') tcpStep = skipped('tcp', tcpLabel, `The name ${host} did not resolve.`)
  else if (tcp === undefined) tcpStep = skipped('tcp', tcpLabel, unseen)
  else {
    tcpStep = await timedStep(deps, 'tcp', tcpLabel, probeUrl, async () => {
      const answer = await tcp(host, port).catch(aboutProxy(route))
      return ok(
        direct
          ? `connected to ${answer.address}`
          : `connected to the proxy at ${answer.address} (the proxy connects to ${serviceHost}:${servicePort} itself)`,
      )
    })
  }
  steps.push(tcpStep)
  const tls = probes.tls
  let tlsStep: ConnectionStep
  if (base.protocol !== 'https:') {
    tlsStep = skipped(
      'tls',
      tlsLabel,
      'The service address starts with http://: no TLS, nothing is encrypted.',
    )
  } else if (dnsStep.state === 'failed')
    tlsStep = skipped('tls', tlsLabel, `The name ${host} did not resolve.`)
  else if (tcpStep.state === 'failed') tlsStep = skipped('tls', tlsLabel, `No connection to ${host}:${port}.`)
  else if (tls === undefined) tlsStep = skipped('tls', tlsLabel, unseen)
  else {
    tlsStep = await timedStep(deps, 'tls', tlsLabel, base.toString(), async () => {
      const answer = await tls(serviceHost, servicePort, route)
      if (answer.trusted) {
        const protocol = answer.protocol === undefined ? '' : `${answer.protocol}, `
        return ok(`${protocol}the certificate chain is trusted by ${answer.trustSet}`, answer.certificates)
      }
      const problem =
        answer.problem ??
        new RosterDeskError('certificate', `The certificate chain is not trusted by ${answer.trustSet}.`)
      return failed(problem, answer.certificates)
    })
  }
  steps.push(tlsStep)

  const firstFailure = steps.find((step) => step.state === 'failed')
  if (direct && firstFailure !== undefined) {
    progress.blocked = `Not tried: the ${firstFailure.id.toUpperCase()} step failed, so the service cannot be reached.`
  }
  return steps
}

/**
 * Behind a proxy, the DNS and TCP probes concern the proxy's host: their failure is handed to the classifier as
 * the proxy's, so the message says to check the proxy setting, not the service address.
 */
function aboutProxy(route: ProxyRoute): (error: unknown) => never {
  return (error) => {
    if (route.kind === 'direct' || error instanceof RosterDeskError) throw error
    const reason = networkFailureReason(error) ?? 'unknown'
    throw new NetworkFailureError(reason, { proxy: route.url }, { cause: error })
  }
}

function hostOf(url: URL): string {
  // IPv6 literals come bracketed from URL; the probes want the bare address.
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port)
  return url.protocol === 'https:' ? 443 : 80
}
