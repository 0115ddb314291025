import { z } from 'zod'
import { IPC_ERROR_CODES } from './ipc-error-codes'

/**
 * The schemas of "Test connection" (Settings → Network, `cli check`), for the IPC contract and the CLI's JSON: the
 * renderer never imports this file (classic zod tries `new Function` once, which the page's CSP refuses), only
 * connection-report.ts, which holds the same types without zod.
 *
 * "Test connection" (Settings → Network, `cli check`): the way to the service tried step by step, each with its
 * outcome, its time and the precise message. The same report in the app, the CLI's text and JSON, and "Copy
 * report": it never holds a secret, a token, credentials in an address, or employee data.
 */
export const CONNECTION_STEP_IDS = [
  // How the base URL is reached: the proxy in use (Electron's resolution in the app, the environment and flags
  // in the CLI), or DIRECT.
  'proxy',
  // What only the CLI can see itself (behind a proxy, the proxy does these): the name, the socket, the TLS chain.
  'dns',
  'tcp',
  'tls',
  // What every runtime can ask: the service's own endpoints.
  'authorize',
  'token',
  'list',
] as const
export type ConnectionStepId = (typeof CONNECTION_STEP_IDS)[number]

/** 'skipped' says why in `message` (no sign-in yet for the list step, a proxy doing DNS and TCP). */
export const connectionStepStateSchema = z.enum(['ok', 'failed', 'skipped'])
export type ConnectionStepState = z.infer<typeof connectionStepStateSchema>

/** One certificate of a chain as a TLS connection presented it: names and dates only. */
export const certificateSummarySchema = z.strictObject({
  subject: z.string(),
  issuer: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  /** SHA-256 fingerprint, colon-separated hex, for IT to compare with the certificate they installed. */
  fingerprint256: z.string(),
})
export type CertificateSummary = z.infer<typeof certificateSummarySchema>

export const connectionStepSchema = z.strictObject({
  id: z.enum(CONNECTION_STEP_IDS),
  /** What was tried, in words: "Proxy for https://payroll.example.com", "Token endpoint answers JSON". */
  label: z.string(),
  state: connectionStepStateSchema,
  /** How long the step took, in milliseconds (0 when skipped). */
  ms: z.number().min(0),
  /** The outcome in words: what was found (✓) or the precise problem and what to do (✗), or why skipped. */
  message: z.string(),
  /** For a failed step, the error's code from the one list. */
  code: z.enum(IPC_ERROR_CODES).optional(),
  /** The TLS chain seen, leaf first, when the step saw one. */
  certificates: z.array(certificateSummarySchema).optional(),
})
export type ConnectionStep = z.infer<typeof connectionStepSchema>

export const connectionReportSchema = z.strictObject({
  /** The base URL tried (never with credentials), and the profile's name when a profile was checked. */
  baseUrl: z.string(),
  profile: z.string().optional(),
  /** ISO time the check started. */
  startedAt: z.string(),
  /** Where it ran: 'app' (Electron's network stack) or 'cli' (Node's). */
  runtime: z.enum(['app', 'cli']),
  steps: z.array(connectionStepSchema),
  /** True when no step failed. */
  ok: z.boolean(),
})
export type ConnectionReport = z.infer<typeof connectionReportSchema>

/** A proxy's sign-in request as the window shows it: which proxy asks, never for what URL. */
export const proxySignInRequestSchema = z.strictObject({
  /** Main's id for this challenge; the answer names it. */
  id: z.string().min(1).max(40),
  /** host:port of the proxy that asks. */
  proxy: z.string(),
  /** The proxy's realm, when it gave one (shown as the proxy's own words). */
  realm: z.string(),
  /** The scheme the proxy asked for ("basic", "ntlm", "negotiate", "digest"). */
  scheme: z.string(),
  /** True when credentials given for this proxy were just refused (a second ask). */
  retry: z.boolean(),
})
export type ProxySignInRequest = z.infer<typeof proxySignInRequestSchema>

export const proxySignInAnswerSchema = z.union([
  z.strictObject({
    username: z.string().min(1).max(256),
    password: z.string().max(1024),
    /** Keep them (encrypted with the OS's store) for this proxy host. */
    remember: z.boolean(),
  }),
  /** Cancel: the request that met the challenge ends with the 'proxy-auth' error. */
  z.null(),
])
export type ProxySignInAnswer = z.infer<typeof proxySignInAnswerSchema>
