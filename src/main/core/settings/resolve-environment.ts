import type { Settings } from '../../../shared/settings-schema'
import {
  environmentLabel,
  normalizeBaseUrl,
  normalizeScopes,
  type Environment,
} from '../../../shared/settings-rules'

/** The in-app sandbox's address and built-in credentials; they are not the clerk's, so they are not secret. */
export interface DemoEnvironment {
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly redirectUri: string
  readonly tenantId: string
}

/** Everything sign-in and sync need to talk to one environment of the service. */
export interface ResolvedEnvironment {
  readonly environment: Environment
  /** Without a trailing slash; empty when the clerk has not entered the address yet. */
  readonly baseUrl: string
  readonly clientId: string
  readonly redirectUri: string
  /** Space-separated. */
  readonly scopes: string
  readonly tenantId: string
  /** Only for Demo, whose sandbox credentials are built in; otherwise the secret comes from the SecretStore. */
  readonly clientSecret?: string
}

/**
 * Which service RosterDesk talks to under the current settings. Demo ignores the clerk's address and client
 * fields and uses the in-app sandbox, so the app works before IT has handed out real credentials.
 */
export function resolveEnvironment(settings: Settings, demo: DemoEnvironment): ResolvedEnvironment {
  const scopes = normalizeScopes(settings.scopes) || 'read'
  if (settings.environment === 'demo') {
    return {
      environment: 'demo',
      baseUrl: normalizeBaseUrl(demo.baseUrl),
      clientId: demo.clientId,
      redirectUri: demo.redirectUri,
      scopes,
      tenantId: demo.tenantId,
      clientSecret: demo.clientSecret,
    }
  }
  return {
    environment: settings.environment,
    baseUrl: normalizeBaseUrl(settings.baseUrls[settings.environment]),
    clientId: settings.clientId,
    redirectUri: settings.redirectUri,
    scopes,
    tenantId: settings.tenantId,
  }
}

/** What is still missing before RosterDesk can sign in to this environment, as one sentence; undefined when nothing. */
export function missingConfiguration(resolved: ResolvedEnvironment): string | undefined {
  const label = environmentLabel(resolved.environment)
  if (resolved.baseUrl === '') return `Enter the ${label} service address in Settings before signing in.`
  if (resolved.clientId === '') return 'Enter the client ID in Settings before signing in.'
  if (resolved.redirectUri === '') return 'Enter the redirect URI in Settings before signing in.'
  return undefined
}
