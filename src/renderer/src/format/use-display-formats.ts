import type { AppInfo } from '../../../shared/domain/app-info'
import type { SettingsView } from '../../../shared/domain/settings'
import { resolveFormatLocale } from '../../../shared/locale-format'
import { browserLocale, setDisplayLocale } from './display-locale'

/**
 * The clerk's regional formats: Settings' choice, or the computer's (main's, or the browser's without Electron),
 * set as the display locale at once, so every number and date of the caller's render is written in them. Also
 * whether both sources have answered (`read`): the home, keyed by the formats, waits for that, since a key that
 * changed as they arrived would remount it and drop what the clerk had already typed into the search box.
 */
export function useDisplayFormats(
  app: { readonly info: AppInfo | undefined; readonly error: string | undefined },
  settings: { readonly view: SettingsView | undefined; readonly loadError: string | undefined },
): { readonly formatLocale: string; readonly read: boolean } {
  const systemLocale = app.info?.systemLocale ?? browserLocale()
  const formatLocale = resolveFormatLocale(settings.view?.settings.formatLocale, systemLocale)
  setDisplayLocale(formatLocale, systemLocale)
  const read =
    (app.info !== undefined || app.error !== undefined) &&
    (settings.view !== undefined || settings.loadError !== undefined)
  return { formatLocale, read }
}
