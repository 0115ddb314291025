import type { MachinePolicy, UpdateChannel } from '../../core/policy/policy-schema'
import type { UpdateState } from '../../../shared/update-state'

/** Help → About's words for a policy that turns updates off. */
export const UPDATES_OFF_BY_POLICY = 'Turned off by your organisation'
/** Why an unsigned macOS build never checks: Squirrel.Mac installs only an update signed like the running app. */
export const UNSIGNED_MAC_BUILD = 'This copy is not signed, so it cannot update itself'

/** Whether the updater runs, and how: its channel and the feed that replaces the build's (a policy's feedUrl). */
export type UpdateSetup =
  | { readonly on: false; readonly state: Extract<UpdateState, { status: 'not-configured' | 'disabled' }> }
  | { readonly on: true; readonly channel: UpdateChannel; readonly feedUrl?: string }

export interface UpdateSetupInput {
  /** The machine policy's `updates` section, or undefined when there is no policy or it has none. */
  readonly policy: MachinePolicy['updates'] | undefined
  /** Why the caller turns updates off (an MSI install: IT updates RosterDesk), or undefined. */
  readonly disabledReason: string | undefined
  /** `app.isPackaged`: a run from source never updates itself. */
  readonly isPackaged: boolean
  /** Whether the build names a feed: electron-builder wrote `app-update.yml` beside the app's resources. */
  readonly builtFeed: boolean
  /** macOS only: false when the app carries no Developer ID signature (mac-signature.ts); undefined elsewhere. */
  readonly macSigned: boolean | undefined
}

/**
 * The one place that decides whether updates run (decision 044), in this order: a policy's `enabled: false`, the
 * caller's reason (an MSI install), a build without a feed (no app-update.yml: electron-updater keeps the cache
 * folder's name and the Windows publisher there, so a policy's feed alone cannot stand in for it), an unsigned
 * macOS build; otherwise on, on the policy's channel (stable by default) and feed (the build's by default).
 */
export function updateSetup(input: UpdateSetupInput): UpdateSetup {
  if (input.policy?.enabled === false)
    return { on: false, state: { status: 'disabled', reason: UPDATES_OFF_BY_POLICY } }
  if (input.disabledReason !== undefined)
    return { on: false, state: { status: 'disabled', reason: input.disabledReason } }
  if (!input.isPackaged || !input.builtFeed) return { on: false, state: { status: 'not-configured' } }
  if (input.macSigned === false)
    return { on: false, state: { status: 'disabled', reason: UNSIGNED_MAC_BUILD } }
  const feedUrl = input.policy?.feedUrl
  return {
    on: true,
    channel: input.policy?.channel ?? 'stable',
    ...(feedUrl === undefined ? {} : { feedUrl }),
  }
}
