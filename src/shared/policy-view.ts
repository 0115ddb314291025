import type { SettingsField } from './settings-schema'

/**
 * The machine policy as the renderer may see it (zod-free, no secret): which settings the organisation set, for
 * the form to show them disabled with `POLICY_LOCKED_LABEL`, and the one message a policy that could not be read
 * leaves. The policy itself (src/main/core/policy/policy-schema.ts) never crosses to the renderer: it may carry
 * the client secret.
 */
export interface PolicyView {
  /** Where the policy in force came from, for Help → About and the log ("C:\ProgramData\RosterDesk\policy.json"); undefined: no policy. */
  readonly source: string | undefined
  /** The active profile's settings fields the policy sets and locks. */
  readonly lockedFields: readonly SettingsField[]
  /** Whether the active profile was created by the policy (it cannot be renamed or deleted). */
  readonly managedProfile: boolean
  /** "Your organisation's settings for RosterDesk could not be read: …", shown once; undefined when none. */
  readonly problem: string | undefined
}

/** What a locked field says beside itself. */
export const POLICY_LOCKED_LABEL = 'Set by your organisation'

/** The first words of the message a policy that could not be read leaves (the reason follows). */
export const POLICY_PROBLEM_PREFIX = "Your organisation's settings for RosterDesk could not be read:"

/** No machine policy: nothing locked, nothing to say. */
export const NO_POLICY_VIEW: PolicyView = {
  source: undefined,
  lockedFields: [],
  managedProfile: false,
  problem: undefined,
}
