import { normalizeBaseUrl } from '../../../shared/settings-rules'
import type { Settings } from '../../../shared/settings-schema'

/** Where a settings change sends RosterDesk's requests that it did not send them before. */
export interface DestinationChange {
  /** The payroll service's address in force, the proxy of "This proxy", or the PAC file of "This PAC file". */
  readonly kind: 'service' | 'proxy' | 'pac'
  /** The new host (with its port when it names one), as the clerk would recognise it. */
  readonly host: string
}

type DestinationSettings = Pick<Settings, 'environment' | 'baseUrls' | 'proxyMode' | 'proxyUrl' | 'pacUrl'>

/**
 * What a change from `before` to `after` does to where requests go (issue 31, point 2): a new service address in
 * force (the environment's; Demo's built-in sandbox is none), a new proxy, or a new PAC address, each with the
 * host it names. Pure: main asks the clerk to confirm these in its own dialog (shell/ipc/settings-channels.ts);
 * none for a change that sends nothing to a new host (back to the OS's proxy settings, no proxy, Demo).
 */
export function destinationChanges(
  before: DestinationSettings,
  after: DestinationSettings,
): DestinationChange[] {
  const changes: DestinationChange[] = []
  const add = (kind: DestinationChange['kind'], from: string, to: string): void => {
    if (to !== '' && to !== from) changes.push({ kind, host: hostOf(to) })
  }
  add('service', serviceAddress(before), serviceAddress(after))
  add(
    'proxy',
    before.proxyMode === 'fixed' ? before.proxyUrl.trim() : '',
    after.proxyMode === 'fixed' ? after.proxyUrl.trim() : '',
  )
  add(
    'pac',
    before.proxyMode === 'pac' ? before.pacUrl.trim() : '',
    after.proxyMode === 'pac' ? after.pacUrl.trim() : '',
  )
  return changes
}

function serviceAddress(settings: DestinationSettings): string {
  return settings.environment === 'demo' ? '' : normalizeBaseUrl(settings.baseUrls[settings.environment])
}

/** The host of an address (a proxy may be written without a scheme); the text itself when it is no URL. */
function hostOf(address: string): string {
  const url =
    URL.canParse(address) && address.includes('://')
      ? new URL(address)
      : URL.canParse(`http://${address}`)
        ? new URL(`http://${address}`)
        : undefined
  return url?.host || address.slice(0, 200)
}
