import type { MachinePolicy, UpdateChannel } from '../../core/policy/policy-schema'
import type { UpdateState } from '../../../shared/update-state'

/** Help → About's words for a policy that turns updates off. */
export const UPDATES_OFF_BY_POLICY = 'Turned off by your organisation'
/** Why an unsigned macOS build never checks: Squirrel.Mac installs only an update signed like the running app. */
export const UNSIGNED_MAC_BUILD = 'This copy is not signed, so it cannot update itself'
/**
 * Why a Windows build whose app-update.yml names no publisher never checks: electron-updater checks an installer's
 * signature only against that name (NsisUpdater.verifySignature), so the feed's own checksum would be all it had.
 */
export const UNSIGNED_WINDOWS_BUILD =
  'This copy is not signed, so it cannot check that an update comes from the publisher of RosterDesk'
/** Why Linux never checks: an AppImage update carries no signature electron-updater checks, only the feed's checksum. */
export const APPIMAGE_UNVERIFIABLE =
  'An AppImage update cannot be checked for the publisher’s signature; install the next version as you installed this one'

/** Whether the updater runs, and how: its channel and the feed that replaces the build's (a policy's feedUrl). */
export type UpdateSetup =
  | { readonly on: false; readonly state: Extract<UpdateState, { status: 'not-configured' | 'disabled' }> }
  | { readonly on: true; readonly channel: UpdateChannel; readonly feedUrl?: string }

export interface UpdateSetupInput {
  /** The machine policy's `updates` section, or undefined when there is no policy or it has none. */
  readonly policy: MachinePolicy['updates'] | undefined
  /** Why the caller turns updates off (an MSI or per-machine install: IT updates RosterDesk), or undefined. */
  readonly disabledReason: string | undefined
  /** `app.isPackaged`: a run from source never updates itself. */
  readonly isPackaged: boolean
  /** Whether the build names a feed: electron-builder wrote `app-update.yml` beside the app's resources. */
  readonly builtFeed: boolean
  /** macOS only: false when the app carries no Developer ID signature (mac-signature.ts); undefined elsewhere. */
  readonly macSigned: boolean | undefined
  /** `process.platform`. */
  readonly platform: NodeJS.Platform
  /** Whether the build's app-update.yml names the Windows publisher (windows-signature.ts `namesPublisher`). */
  readonly publisherNamed: boolean
}

/**
 * The one place that decides whether updates run (decisions 044, 050), in this order: a policy's `enabled: false`,
 * the caller's reason (an MSI or per-machine install), a build without a feed (no app-update.yml: electron-updater
 * keeps the cache folder's name and the Windows publisher there, so a policy's feed alone cannot stand in for it),
 * an unsigned macOS build, a Windows build that names no publisher, Linux (an AppImage); otherwise on, on the
 * policy's channel (stable by default) and feed (the build's by default). Only a build whose updates' signatures
 * are checked updates itself: the feed's sha512 alone comes from the same place as the update.
 */
export function updateSetup(input: UpdateSetupInput): UpdateSetup {
  if (input.policy?.enabled === false)
    return { on: false, state: { status: 'disabled', reason: UPDATES_OFF_BY_POLICY } }
  if (input.disabledReason !== undefined)
    return { on: false, state: { status: 'disabled', reason: input.disabledReason } }
  if (!input.isPackaged || !input.builtFeed) return { on: false, state: { status: 'not-configured' } }
  if (input.macSigned === false)
    return { on: false, state: { status: 'disabled', reason: UNSIGNED_MAC_BUILD } }
  if (input.platform === 'win32' && !input.publisherNamed)
    return { on: false, state: { status: 'disabled', reason: UNSIGNED_WINDOWS_BUILD } }
  if (input.platform === 'linux')
    return { on: false, state: { status: 'disabled', reason: APPIMAGE_UNVERIFIABLE } }
  const feedUrl = input.policy?.feedUrl
  return {
    on: true,
    channel: input.policy?.channel ?? 'stable',
    ...(feedUrl === undefined ? {} : { feedUrl }),
  }
}
