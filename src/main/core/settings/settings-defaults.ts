import type { Settings } from '../../../shared/settings-schema'
import {
  DEFAULT_FORMAT_LOCALE,
  DEFAULT_SYNC_SCOPE,
  FRESHNESS_DEFAULTS,
  NETWORK_DEFAULTS,
  PAY_DISPLAY_DEFAULTS,
  SYNC_LIMIT_SETTING_DEFAULTS,
} from '../../../shared/settings-rules'

/** electron-store's name for the settings file in the user-data folder (`<name>.json`). */
export const SETTINGS_STORE_NAME = 'settings'
export const SETTINGS_FILE_NAME = `${SETTINGS_STORE_NAME}.json`

/** Bumped whenever the persisted layout changes; `migrateSettings` brings older layouts forward. */
export const SETTINGS_VERSION = 1

/**
 * A private-use URI scheme in reverse-domain form with a single slash and no authority, as RFC 8252 §7.1 asks of
 * native apps; the OS hands it to RosterDesk, never to a web site.
 */
export const DEFAULT_REDIRECT_URI = 'com.rosterdesk.app:/oauth/callback'

/**
 * Demo's redirect: a loopback address with no port, so RosterDesk listens on any free port for the one callback
 * (RFC 8252 §7.3) and the built-in sandbox accepts it on every port. Unlike the private-use scheme, it needs no
 * registration with the OS, so Demo signs in under `npm start` on every OS (macOS hands custom-scheme URLs only
 * to a packaged app).
 */
export const DEMO_REDIRECT_URI = 'http://127.0.0.1/oauth/callback'

/**
 * First-run settings. The spec only names placeholders for the Staging and Production addresses, so they start
 * empty and the clerk (or their IT team) enters them; Demo needs nothing because it talks to the in-app sandbox.
 */
export const DEFAULT_SETTINGS: Settings = {
  environment: 'demo',
  baseUrls: { staging: '', production: '' },
  clientId: '',
  redirectUri: DEFAULT_REDIRECT_URI,
  scopes: 'read',
  tenantId: '',
  pageSize: 500,
  concurrency: 4,
  trackedPayCycles: [],
  syncScope: DEFAULT_SYNC_SCOPE,
  ...FRESHNESS_DEFAULTS,
  ...SYNC_LIMIT_SETTING_DEFAULTS,
  ...NETWORK_DEFAULTS,
  formatLocale: DEFAULT_FORMAT_LOCALE,
  ...PAY_DISPLAY_DEFAULTS,
}

/** A fresh copy, so callers can never mutate the shared defaults. */
export function defaultSettings(): Settings {
  return structuredClone(DEFAULT_SETTINGS)
}
