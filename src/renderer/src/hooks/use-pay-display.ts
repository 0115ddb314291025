import { createContext, useContext, useMemo } from 'react'
import type { Settings } from '../../../shared/settings-schema'
import { PAY_DISPLAY_DEFAULTS } from '../../../shared/settings-rules'

/** The profile's pay display settings as the cells that write amounts need them. */
export interface PayDisplay {
  /** The currency of amounts whose row names none: an ISO 4217 code, '' for none. */
  readonly currency: string
  /** "Hide pay": money is left off the screen (and the printed page). */
  readonly hidePay: boolean
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

/**
 * The pay display settings of the profile's saved settings; until they are read pay is hidden, so a reload never
 * flashes pay a clerk chose to hide.
 */
export function usePayDisplaySettings(saved: Settings | undefined): PayDisplay {
  const currency = saved?.currency ?? PAY_DISPLAY_DEFAULTS.currency
  const hidePay = saved?.hidePay ?? true
  return useMemo(() => ({ currency, hidePay }), [currency, hidePay])
}
