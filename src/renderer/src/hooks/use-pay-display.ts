import { createContext, useCallback, useContext, useMemo, useState } from 'react'
import type { JsonValue } from '../../../shared/domain/rows'
import { isSensitiveField, maskedText } from '../../../shared/sensitive-fields'
import type { Settings } from '../../../shared/settings-schema'
import { PAY_DISPLAY_DEFAULTS } from '../../../shared/settings-rules'
import { formatValue } from '../format/format-value'

/** The profile's pay display settings as the cells that write amounts (and sensitive values) need them. */
export interface PayDisplay {
  /** The currency of amounts whose row names none: an ISO 4217 code, '' for none. */
  readonly currency: string
  /** "Hide pay": money is left off the screen (and the printed page). */
  readonly hidePay: boolean
  /**
   * The machine policy's `personalData.maskSensitiveColumns`: sensitive columns (shared/sensitive-fields.ts) are
   * masked on screen until the clerk chooses "Show" for each, in this session only; absent: none masked.
   */
  readonly maskSensitive?: boolean
  /** The columns the clerk chose to show in this session (kept in memory, never saved). */
  readonly shownColumns?: ReadonlySet<string>
  /** "Show" on a masked column: its values in clear for the rest of the session. */
  readonly showColumn?: (key: string) => void
}

/**
 * The profile's pay display settings, for the cells that write amounts: the table's rows and the detail panel,
 * many levels below the settings. A row that names its own currency (`rowCurrency` in shared/money.ts) is written
 * in that one instead.
 */
export const PayDisplayContext = createContext<PayDisplay>(PAY_DISPLAY_DEFAULTS)

/** The profile's pay display settings (the defaults outside a provider). */
export function usePayDisplay(): PayDisplay {
  return useContext(PayDisplayContext)
}

/** Whether `key`'s values are masked on screen now: a sensitive column under the policy, not shown this session. */
export function isMasked(display: PayDisplay, key: string): boolean {
  return display.maskSensitive === true && isSensitiveField(key) && display.shownColumns?.has(key) !== true
}

/**
 * A value as every place on screen writes it (the table's cell, the detail panel, a look-up's result): masked
 * (`maskedText`) while `isMasked`, else formatted (format-value.ts), amounts in `currency`.
 */
export function displayedValue(
  display: PayDisplay,
  value: JsonValue | undefined,
  key: string,
  currency?: string,
): string {
  return isMasked(display, key) ? maskedText(key, value) : formatValue(value, key, currency)
}

/**
 * The pay display settings of the profile's saved settings; until they are read pay is hidden, so a reload never
 * flashes pay a clerk chose to hide. `maskSensitive` is the machine policy's; the columns shown are this
 * session's, kept here in memory only, so a restart masks them again.
 */
export function usePayDisplaySettings(saved: Settings | undefined, maskSensitive = false): PayDisplay {
  const currency = saved?.currency ?? PAY_DISPLAY_DEFAULTS.currency
  const hidePay = saved?.hidePay ?? true
  const [shownColumns, setShown] = useState<ReadonlySet<string>>(() => new Set())
  const showColumn = useCallback(
    (key: string) => setShown((shown) => (shown.has(key) ? shown : new Set([...shown, key]))),
    [],
  )
  return useMemo(
    () => ({ currency, hidePay, maskSensitive, shownColumns, showColumn }),
    [currency, hidePay, maskSensitive, shownColumns, showColumn],
  )
}
