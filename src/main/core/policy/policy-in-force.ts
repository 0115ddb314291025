import type { MachinePolicy } from './policy-schema'

/**
 * What reading the machine policy at start found (`loadMachinePolicy`, policy-sources.ts): the policy in force
 * and where it came from, or none; or a policy that could not be read, ignored as a whole, with the reason for
 * the clerk and IT (`problem.message`, shown once; `problem.detail` for the log). The app core and the CLI are
 * built with one of these, and every rule of the policy is read from it.
 */
export interface PolicyInForce {
  readonly policy: MachinePolicy | undefined
  /** The file path, or `HKLM\Software\Policies\RosterDesk`; undefined when no policy is in force. */
  readonly source: string | undefined
  readonly problem: { readonly message: string; readonly detail: string } | undefined
}

/** No policy on this machine. */
export const NO_POLICY: PolicyInForce = { policy: undefined, source: undefined, problem: undefined }
