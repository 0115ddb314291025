import type * as z from 'zod/mini'
import { checkValue } from '../../shared/settings-schema'
import { UsageError } from './cache-command-args'

/**
 * A flag that carries a setting (--page-size, --tenant, --base-url…), checked by that setting's rule in the one
 * settings schema, so the CLI refuses exactly what the app's settings form refuses, in the same words. The
 * refusal names the flag first, for a script's log: "--page-size: Page size must be a whole number from …".
 */
export function settingFlag<S extends z.ZodMiniType>(flag: string, schema: S, raw: unknown): z.output<S> {
  const checked = checkValue(schema, raw)
  if (!checked.ok) throw new UsageError(`--${flag}: ${checked.problem}`)
  return checked.value
}
