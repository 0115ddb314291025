import type { ReactNode } from 'react'
import type { SettingsView } from '../../../shared/domain/settings'
import { NO_EXPORT_RULES } from '../../../shared/policy-view'
import { ExportRulesContext } from '../hooks/use-export-format'

/**
 * Gives the export places in `children` the machine policy's export rules (the settings view's `policy.exports`;
 * none until the settings are read), which `useExportFormat` reads.
 */
export function ExportRulesProvider({
  policy,
  children,
}: {
  readonly policy: SettingsView['policy'] | undefined
  readonly children: ReactNode
}) {
  return (
    <ExportRulesContext.Provider value={policy?.exports ?? NO_EXPORT_RULES}>
      {children}
    </ExportRulesContext.Provider>
  )
}
