import { useState } from 'react'
import type { SettingsView } from '../../../shared/domain/settings'

/** Where the messages dismissed in this run are remembered: the window's session, which a reload keeps. */
const DISMISSED_KEY = 'rosterdesk.policyNoticesDismissed'

function readDismissed(): ReadonlySet<string> {
  try {
    const value: unknown = JSON.parse(window.sessionStorage.getItem(DISMISSED_KEY) ?? '[]')
    return new Set(Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [])
  } catch {
    return new Set()
  }
}

function writeDismissed(dismissed: ReadonlySet<string>): void {
  try {
    window.sessionStorage.setItem(DISMISSED_KEY, JSON.stringify([...dismissed]))
  } catch {
    // No session storage: dismissed for as long as this page lives.
  }
}

/**
 * What the machine policy has to tell the clerk, each message once per run of the app: a policy that could not be
 * read (`problem`, its full message) and what the organisation's rules did at start (`notices`, saved employees
 * deleted for their age). A quiet notice, not an error: RosterDesk works on without the policy. Each is dismissed
 * with its own button and not shown again in this run, a reload of the window included (the window's session
 * storage lasts exactly as long as the app's window); the next start shows what is still true then.
 */
export function PolicyNotices({
  policy,
}: {
  readonly policy: Pick<SettingsView['policy'], 'problem' | 'notices'> | undefined
}) {
  const [dismissed, setDismissed] = useState(readDismissed)
  if (policy === undefined) return null
  const messages = [...(policy.problem === undefined ? [] : [policy.problem]), ...policy.notices].filter(
    (message) => !dismissed.has(message),
  )
  if (messages.length === 0) return null
  const dismiss = (message: string): void => {
    const next = new Set([...readDismissed(), ...dismissed, message])
    writeDismissed(next)
    setDismissed(next)
  }
  return (
    <section className="banner policy-notices" aria-label="From your organisation">
      {messages.map((message) => (
        <div key={message} className="policy-notice">
          <p>{message}</p>
          <button type="button" onClick={() => dismiss(message)}>
            Dismiss
          </button>
        </div>
      ))}
    </section>
  )
}
