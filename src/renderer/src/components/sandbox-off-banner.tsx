import { SANDBOX_OFF_NOTICE } from '../../../shared/domain/app-info'

/** Shown while Chromium's sandbox is off (main's `app:get-info` says `sandboxOff`: a `--no-sandbox` start). */
export function SandboxOffBanner() {
  return (
    // A labelled region, so this warning beside the header is inside a landmark like the rest of the page.
    <section className="banner banner-warning" aria-label="Security warning">
      {SANDBOX_OFF_NOTICE}
    </section>
  )
}
