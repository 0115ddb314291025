import { FALLBACK_FORMAT_LOCALE, canonicalLocale } from '../../../shared/locale-format'

/**
 * The locale the window formats numbers, dates and times in (shared/locale-format.ts): the clerk's regional formats
 * as `App` resolves them from Settings and main's `app:get-info` (`systemLocale`). Until they are known, the
 * browser's own locale (Chromium's, which in a browser test is the `locale` it was started with). One window shows
 * one locale at a time, so the renderer's format functions read it here rather than taking it at every call.
 */
let current: string = canonicalLocale(globalThis.navigator?.language) ?? FALLBACK_FORMAT_LOCALE
let system: string | undefined = globalThis.navigator?.language

/** The locale the renderer formats in now. */
export function displayLocale(): string {
  return current
}

/** The computer's regional formats as App last learnt them, which Settings' "System" choice stands for. */
export function displaySystemLocale(): string | undefined {
  return system
}

/**
 * Sets the locale the renderer formats in and the computer's own (App, once the setting and the system's locale
 * are known).
 */
export function setDisplayLocale(locale: string, systemLocale: string | undefined): void {
  current = locale
  system = systemLocale
}

/** The browser's own locale: where there is no Electron (a browser test), it stands for the system's. */
export function browserLocale(): string | undefined {
  return globalThis.navigator?.language
}
