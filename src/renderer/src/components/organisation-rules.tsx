import type { ReactNode } from 'react'
import type { SettingsView } from '../../../shared/domain'
import { NO_EXPORT_RULES } from '../../../shared/policy-view'
import { ExportRulesContext } from '../hooks/use-export-format'
import { PolicyNotices } from './policy-notices'

/**
 * The machine policy's part of the window (the settings view's `policy`; none until it is read): its messages,
 * told once (PolicyNotices), above `children`, whose export places get its export rules (ExportRulesContext).
 */
export function OrganisationRules({
  policy,
  children,
}: {
  readonly policy: SettingsView['policy'] | undefined
  readonly children: ReactNode
}) {
  return (
    <>
      <PolicyNotices policy={policy} />
      <ExportRulesContext.Provider value={policy?.exports ?? NO_EXPORT_RULES}>
        {children}
      </ExportRulesContext.Provider>
    </>
  )
}
