import type { Environment } from '../../../shared/domain'

// A Record keyed by the contract's type, so a new environment fails to compile here until it has a label. The
// renderer imports only types from shared/domain: its values would bring zod into the bundle.
const LABELS: Record<Environment, string> = { demo: 'Demo', staging: 'Staging', production: 'Production' }

/** Every environment, in the order the settings offer them. */
export const ENVIRONMENT_OPTIONS = Object.keys(LABELS) as Environment[]

/** The environment as the clerk reads it. */
export function environmentLabel(environment: Environment): string {
  return LABELS[environment]
}
