import { useState } from 'react'
import { useCommandBus } from '../hooks/use-app-commands'

/** Where a notice dismissed in this run is remembered: the window's session, which a reload keeps. */
const DISMISSED_KEY = 'rosterdesk.crashNoticeDismissed'

/**
 * The clerk's notice after RosterDesk closed unexpectedly (issue 35, point 1), without alarm: when (the weekday in
 * English, as UI text stays English, with the day when it is over six days ago; the clock in the locale's digits),
 * that the saved employees are safe, and what to do for IT (the notice's "Save diagnostics…" runs Help → Save
 * diagnostics…).
 */
export function crashNoticeText(at: Date, now: Date, locale: string): string {
  const weekday = new Intl.DateTimeFormat('en', { weekday: 'long' }).format(at)
  const day =
    now.getTime() - at.getTime() > 6 * 24 * 60 * 60 * 1000
      ? ` ${new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'numeric' }).format(at)}`
      : ''
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(at)
  return `RosterDesk closed unexpectedly on ${weekday}${day} at ${time}. Your saved employees are safe. Save diagnostics for IT.`
}

function dismissedAt(): string | undefined {
  try {
    return window.sessionStorage.getItem(DISMISSED_KEY) ?? undefined
  } catch {
    return undefined
  }
}

/**
 * Shown in the first run after a crash (main's `app:get-info` says `crashedAt`, which the next start no longer
 * does): a quiet notice with its own Dismiss, not shown again in this run once dismissed, a reload included.
 */
export function CrashNotice({ crashedAt, locale }: { readonly crashedAt: string; readonly locale: string }) {
  const [dismissed, setDismissed] = useState(() => dismissedAt() === crashedAt)
  const commands = useCommandBus()
  if (dismissed) return null
  const dismiss = (): void => {
    try {
      window.sessionStorage.setItem(DISMISSED_KEY, crashedAt)
    } catch {
      // No session storage: dismissed for as long as this page lives.
    }
    setDismissed(true)
  }
  return (
    <section className="banner crash-notice" aria-label="RosterDesk closed unexpectedly">
      <p>{crashNoticeText(new Date(crashedAt), new Date(), locale)}</p>
      <button type="button" onClick={() => commands.dispatch('save-diagnostics', undefined)}>
        Save diagnostics…
      </button>
      <button type="button" onClick={dismiss}>
        Dismiss
      </button>
    </section>
  )
}
