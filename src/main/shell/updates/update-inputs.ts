import { app } from 'electron'
import { readFileSync } from 'node:fs'
import { loadMachinePolicy } from '../../core/policy/policy-sources'
import { systemPolicySources } from '../../core/policy/registry-query'
import type { MachinePolicy } from '../../core/policy/policy-schema'
import { managedInstallReason, type MsiInstallFacts } from '../window-and-startup/msi-install'

export interface UpdateInputs {
  readonly policy: MachinePolicy['updates'] | undefined
  readonly disabledReason: string | undefined
}

/**
 * What main's updater takes from outside (createAppUpdates' `policy` and `disabledReason`): the machine policy's
 * `updates` section, read by the same reader and from the same sources as the core process's (decision 042; a
 * policy that cannot be read is logged and shown by the core, and here counts as none), and whether IT manages
 * this copy (an MSI install, decision 045, or a per-machine NSIS install, decision 050), which turns its own updates
 * off.
 */
export async function updateInputs(): Promise<UpdateInputs> {
  const inForce = await loadMachinePolicy(systemPolicySources(app.isPackaged))
  return { policy: inForce.policy?.updates, disabledReason: managedInstallReason(installFacts()) }
}

/** What msi-install.ts decides this copy's install from: the running app's. */
export function installFacts(): MsiInstallFacts {
  return {
    platform: process.platform,
    isPackaged: app.isPackaged,
    execPath: process.execPath,
    readFile: (path) => {
      try {
        return readFileSync(path)
      } catch {
        return undefined
      }
    },
  }
}
