import type {
  ConnectionReport,
  ConnectionStep,
  ProxySignInAnswer,
  ProxySignInRequest,
} from '../../../src/shared/connection-report'
import type { SettingsView } from '../../../src/shared/domain/settings'
import type { Settings } from '../../../src/shared/settings-schema'
import type { IpcError } from '../../../src/shared/ipc-contract'
import { PROXY_MODE_LABELS } from '../../../src/shared/settings-rules'
import { FakeIpcError, type FakeEvents, type FakeHandlers } from './fake-api'

/** The address the fake's Demo environment answers on, as the real Demo sandbox does (on loopback). */
export const FAKE_DEMO_BASE_URL = 'http://127.0.0.1:4010'

export interface FakeNetworkOptions {
  /**
   * What `network:check` answers: a report, or an error the channel itself fails with. Absent: a report built
   * from the saved settings (fakeConnectionReport), every step passing and the list step skipped when signed out.
   */
  readonly report?: ConnectionReport | IpcError
  /** When set, a check waits for `releaseCheck()`, so a test can see the running state. */
  readonly manualCheck?: boolean
  /**
   * What the native open dialog of `network:choose-certificates` gives: a path, null when the clerk cancels it,
   * or an error (main's answer to a file that holds no certificate). Absent: /home/clerk/company-root.pem.
   */
  readonly chosenCertificates?: string | null | IpcError
  /** Proxies (host:port) whose sign-in is remembered at the start. */
  readonly rememberedProxies?: readonly string[]
}

/** What the network channels need of the rest of the fake core. */
export interface FakeNetworkHost {
  settings(): Settings
  saveSettings(patch: Partial<Settings>): void
  view(): SettingsView
  signedIn(): boolean
  now(): number
}

/** A proxy challenge answered through the dialog, as main received it. */
export interface FakeProxyAnswer {
  readonly id: string
  readonly answer: ProxySignInAnswer
}

export type FakeNetworkHandlers = Pick<
  FakeHandlers,
  | 'network:check'
  | 'network:choose-certificates'
  | 'network:remove-certificates'
  | 'network:forget-proxy-password'
  | 'network:answer-proxy-sign-in'
>

export interface FakeNetwork {
  readonly handlers: FakeNetworkHandlers
  /** The remembered proxies, as the settings view lists them. */
  rememberedProxies(): string[]
  /** Every answer the window gave, in order (passwords included: the tests check what was sent). */
  readonly proxyAnswers: FakeProxyAnswer[]
  setReport(report: ConnectionReport | IpcError | undefined): void
  /** Lets a held check (`manualCheck`) answer. */
  releaseCheck(): void
  setChosenCertificates(result: string | null | IpcError): void
  /**
   * Plays main meeting a proxy's challenge: emits `network:proxy-sign-in` and resolves with the window's answer
   * (null for Cancel). As main does, credentials given with Remember make the proxy a remembered one.
   */
  askProxySignIn(
    request: Omit<ProxySignInRequest, 'id'> & { readonly id?: string },
  ): Promise<ProxySignInAnswer>
  /** The challenges still waiting for an answer, by id. */
  pendingProxySignIns(): string[]
}

const DEFAULT_CERTIFICATES = '/home/clerk/company-root.pem'

function isIpcError(value: unknown): value is IpcError {
  return typeof value === 'object' && value !== null && 'code' in value && 'message' in value
}

/** The service address the saved settings reach, as main resolves it (Demo: the built-in sandbox). */
export function fakeBaseUrl(settings: Settings): string {
  return settings.environment === 'demo' ? FAKE_DEMO_BASE_URL : settings.baseUrls[settings.environment]
}

/**
 * A check that passed, as the app (Electron's network stack) reports it for `settings`: the proxy in use, the
 * authorize and token endpoints, and the list request (skipped until signed in).
 */
export function fakeConnectionReport(settings: Settings, signedIn: boolean, now: number): ConnectionReport {
  const baseUrl = fakeBaseUrl(settings)
  const proxyMessage: Record<Settings['proxyMode'], string> = {
    system: `${PROXY_MODE_LABELS.system}: DIRECT (no proxy for this address).`,
    none: `${PROXY_MODE_LABELS.none}: DIRECT.`,
    fixed: `${PROXY_MODE_LABELS.fixed}: PROXY ${settings.proxyUrl.replace(/^\w+:\/\//, '')}.`,
    pac: `${PROXY_MODE_LABELS.pac} (${settings.pacUrl}): DIRECT.`,
  }
  const steps: ConnectionStep[] = [
    {
      id: 'proxy',
      label: `Proxy for ${baseUrl}`,
      state: 'ok',
      ms: 3,
      message: proxyMessage[settings.proxyMode],
    },
    {
      id: 'authorize',
      label: 'Authorize page answers',
      state: 'ok',
      ms: 42,
      message: 'HTTP 200 from /oauth/authorize.',
    },
    {
      id: 'token',
      label: 'Token endpoint answers JSON',
      state: 'ok',
      ms: 38,
      message: 'HTTP 400 with an OAuth error in JSON, as expected without a code.',
    },
    signedIn
      ? {
          id: 'list',
          label: 'One employee list request',
          state: 'ok',
          ms: 120,
          message: `HTTP 200, tenant ${settings.tenantId}.`,
        }
      : {
          id: 'list',
          label: 'One employee list request',
          state: 'skipped',
          ms: 0,
          message: 'Not signed in: sign in to try a list request.',
        },
  ]
  return { baseUrl, runtime: 'app', startedAt: new Date(now).toISOString(), steps, ok: true }
}

/**
 * A check behind TLS inspection that RosterDesk does not trust: every state, a certificate chain under its step,
 * and times under and over a second.
 */
export const INSPECTED_TLS_REPORT: ConnectionReport = {
  baseUrl: 'https://payroll.example.com',
  profile: 'Acme Ltd',
  startedAt: '2026-11-27T09:00:00.000Z',
  runtime: 'app',
  ok: false,
  steps: [
    {
      id: 'proxy',
      label: 'Proxy for https://payroll.example.com',
      state: 'ok',
      ms: 12,
      message: 'PROXY proxy.corp.example:8080.',
    },
    {
      id: 'authorize',
      label: 'Authorize page answers',
      state: 'failed',
      ms: 1430,
      code: 'certificate',
      message:
        'The payroll service’s certificate is not trusted: it was issued by Zscaler Root CA. Ask IT to install that certificate, or choose it in Settings → Network.',
      certificates: [
        {
          subject: 'CN=payroll.example.com',
          issuer: 'CN=Zscaler Intermediate CA',
          validFrom: '2026-11-01',
          validTo: '2026-12-01',
          fingerprint256: 'AA:BB:CC',
        },
        {
          subject: 'CN=Zscaler Intermediate CA',
          issuer: 'CN=Zscaler Root CA',
          validFrom: '2020-01-01',
          validTo: '2030-01-01',
          fingerprint256: 'DD:EE:FF',
        },
      ],
    },
    {
      id: 'token',
      label: 'Token endpoint answers JSON',
      state: 'skipped',
      ms: 0,
      message: 'Not tried: the service could not be reached.',
    },
    {
      id: 'list',
      label: 'One employee list request',
      state: 'skipped',
      ms: 0,
      message: 'Not signed in: sign in to try a list request.',
    },
  ],
}

/**
 * The network channels of the fake core with the behaviour main gives them, scriptable by a test: the check's
 * report (or its failure, or a held check), the certificate file the open dialog gives, the remembered proxy
 * sign-ins (each forgettable), and proxy challenges emitted to the window whose answers are recorded.
 */
export function createFakeNetwork(
  events: FakeEvents,
  host: FakeNetworkHost,
  options: FakeNetworkOptions = {},
): FakeNetwork {
  let report = options.report
  let chosen = options.chosenCertificates === undefined ? DEFAULT_CERTIFICATES : options.chosenCertificates
  const remembered = new Set(options.rememberedProxies ?? [])
  const waiting = new Map<string, { proxy: string; resolve: (answer: ProxySignInAnswer) => void }>()
  const proxyAnswers: FakeProxyAnswer[] = []
  const heldChecks: Array<() => void> = []
  let nextId = 1

  const handlers: FakeNetworkHandlers = {
    'network:check': async () => {
      if (options.manualCheck) await new Promise<void>((resolve) => heldChecks.push(resolve))
      if (report === undefined) return fakeConnectionReport(host.settings(), host.signedIn(), host.now())
      if (isIpcError(report)) throw new FakeIpcError(report.code, report.message)
      return structuredClone(report)
    },
    'network:choose-certificates': async () => {
      if (isIpcError(chosen)) throw new FakeIpcError(chosen.code, chosen.message)
      if (chosen !== null) host.saveSettings({ extraCertificatesFile: chosen })
      return host.view()
    },
    'network:remove-certificates': async () => {
      host.saveSettings({ extraCertificatesFile: '' })
      return host.view()
    },
    'network:forget-proxy-password': async (proxy) => {
      remembered.delete(proxy)
      return host.view()
    },
    'network:answer-proxy-sign-in': async (id, answer) => {
      const challenge = waiting.get(id)
      if (challenge === undefined) return false
      waiting.delete(id)
      proxyAnswers.push({ id, answer })
      if (answer?.remember) remembered.add(challenge.proxy)
      challenge.resolve(answer)
      return true
    },
  }

  return {
    handlers,
    rememberedProxies: () => [...remembered].sort(),
    proxyAnswers,
    setReport: (next) => (report = next),
    releaseCheck: () => heldChecks.splice(0).forEach((release) => release()),
    setChosenCertificates: (next) => (chosen = next),
    askProxySignIn(request) {
      const id = request.id ?? `challenge-${nextId++}`
      return new Promise<ProxySignInAnswer>((resolve) => {
        waiting.set(id, { proxy: request.proxy, resolve })
        events.emit('network:proxy-sign-in', {
          id,
          proxy: request.proxy,
          realm: request.realm,
          scheme: request.scheme,
          retry: request.retry,
        })
      })
    },
    pendingProxySignIns: () => [...waiting.keys()],
  }
}
