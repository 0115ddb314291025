import { useEffect, useRef, type ReactNode } from 'react'
import type { ProfileList } from '../../../shared/domain/profiles'
import type { Environment } from '../../../shared/settings-rules'
import type { SettingsFormController } from '../hooks/use-settings-form'
import { IdentityChangeDialog } from './identity-change-dialog'
import type { RowSource } from '../../../shared/source-identity'

/** The sections of Settings, in order: the index beside the form lists them, each a heading above its fieldsets. */
export const SECTIONS = [
  { id: 'service', title: 'Service and sign-in' },
  { id: 'sync', title: 'Syncing' },
  { id: 'display', title: 'Display' },
  { id: 'network', title: 'Network and certificates' },
  { id: 'advanced', title: 'Advanced' },
] as const
export type SectionId = (typeof SECTIONS)[number]['id']

export const sectionId = (id: SectionId): string => `settings-section-${id}`

/** One section of Settings: its heading (where the index takes the focus) above its fieldsets. */
export function SettingsSection({ id, children }: { readonly id: SectionId; readonly children: ReactNode }) {
  const section = SECTIONS.find((each) => each.id === id)
  return (
    // No accessible name, so not a landmark: the sections are the form's parts, found by their headings and the index.
    <section className="settings-section" id={sectionId(id)}>
      <h2 id={`${sectionId(id)}-title`} tabIndex={-1}>
        {section?.title}
      </h2>
      {children}
    </section>
  )
}

/** The short index of Settings' sections: each entry scrolls to its section and puts the focus on its heading. */
export function SettingsIndex() {
  const go = (id: SectionId): void => {
    const heading = document.getElementById(`${sectionId(id)}-title`)
    heading?.scrollIntoView({ block: 'start' })
    heading?.focus({ preventScroll: true })
  }
  return (
    <nav className="settings-index" aria-label="Settings sections">
      <ul>
        {SECTIONS.map((section) => (
          <li key={section.id}>
            <button type="button" className="link" onClick={() => go(section.id)}>
              {section.title}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/**
 * Settings opened at the service's fields: the focus, once, when the form first shows, on the first of them the
 * profile lacks: the chosen environment's address, else the client ID (on the environment for Demo, which has
 * neither).
 */
export function useOpenAt(
  openAt: 'service' | undefined,
  environment: Environment,
  given: { readonly address: boolean; readonly clientId: boolean },
): void {
  const first = useRef({ environment, given })
  useEffect(() => {
    if (openAt !== 'service') return
    // The service's section is the form's first: focusing its field brings it into view.
    const { environment: shown, given: had } = first.current
    const target =
      shown === 'demo'
        ? 'setting-environment'
        : had.address && !had.clientId
          ? 'setting-clientId'
          : `setting-${shown}Url`
    document.getElementById(target)?.focus()
  }, [openAt])
}

/**
 * The sticky footer: what the last save said, Save settings and Done; and the confirmation a change of the profile's
 * source asks (decision 039).
 */
export function SettingsFooter({
  outcome,
  profiles,
  saving,
  onDone,
  identityPending,
  resolveIdentity,
  source,
}: Pick<SettingsFormController, 'outcome' | 'saving' | 'identityPending' | 'resolveIdentity'> & {
  readonly profiles: ProfileList | undefined
  /** Where the saved employees came from, which the confirmation names. */
  readonly source: RowSource
  readonly onDone: () => void
}) {
  return (
    <>
      <div className="settings-footer">
        <div className="settings-outcome">
          {outcome ? (
            <p
              className={outcome.tone === 'error' ? 'message message-error' : 'message message-ok'}
              role={outcome.tone === 'error' ? 'alert' : 'status'}
            >
              {outcome.text}
            </p>
          ) : null}
        </div>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={saving}>
            Save settings
          </button>
          <button type="button" onClick={onDone}>
            Done
          </button>
        </div>
      </div>
      {identityPending ? (
        <IdentityChangeDialog
          environment={identityPending.environment}
          source={source}
          employeeCount={identityPending.employeeCount}
          profiles={profiles}
          onChoose={resolveIdentity}
        />
      ) : null}
    </>
  )
}
