/**
 * The window's notice while Chromium's sandbox is off: electron-builder's AppImage launcher adds `--no-sandbox`
 * where the system allows no unprivileged user namespaces (issue 31, point 7).
 * Here, not beside the app info's schema: the page imports no zod (its object parsers probe for eval, which the
 * CSP refuses).
 */
export const SANDBOX_OFF_NOTICE =
  'RosterDesk was started with --no-sandbox, so a web page it shows is not kept apart from the rest of this computer. This happens when the AppImage runs on a system without user namespaces: ask IT to enable them, or to install RosterDesk another way.'

/** Shown while Chromium's sandbox is off (main's `app:get-info` says `sandboxOff`: a `--no-sandbox` start). */
export function SandboxOffBanner() {
  return (
    // A labelled region, so this warning beside the header is inside a landmark like the rest of the page.
    <section className="banner banner-warning" aria-label="Security warning">
      {SANDBOX_OFF_NOTICE}
    </section>
  )
}
