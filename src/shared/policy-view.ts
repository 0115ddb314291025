import { formatNumber } from './locale-format'
import type { SettingsField } from './settings-schema'

/**
 * The machine policy as the renderer may see it (zod-free, no secret): which settings the organisation set, for
 * the form to show them disabled with `POLICY_LOCKED_LABEL`, and the one message a policy that could not be read
 * leaves. The policy itself (src/main/core/policy/policy-schema.ts) never crosses to the renderer: it may carry
 * the client secret.
 */
export interface PolicyView {
  /** Where the policy in force came from, for Help → About and the log ("C:\ProgramData\RosterDesk\policy.json"); undefined: no policy. */
  readonly source: string | undefined
  /** The active profile's settings fields the policy sets and locks, and `clientSecret` when it supplies the secret. */
  readonly lockedFields: readonly PolicyLockedField[]
  /** Whether the active profile was created by the policy (it cannot be renamed or deleted). */
  readonly managedProfile: boolean
  /** "Your organisation's settings for RosterDesk could not be read: …", shown once; undefined when none. */
  readonly problem: string | undefined
  /** The organisation's export rules, for the export places to offer only what the core will write. */
  readonly exports: ExportRulesView
  /**
   * What the organisation's rules did at this start that the clerk is told once per run (saved employees deleted
   * for their age, `retentionNotice`); empty when nothing.
   */
  readonly notices: readonly string[]
  /**
   * Signing out also deletes the profile's saved employees (`personalData.clearOnSignOut`), so Sign out asks first
   * (`signOutDeletesQuestion`); absent: it does not.
   */
  readonly clearsOnSignOut?: boolean
  /**
   * Sensitive columns are shown masked until the clerk chooses "Show" for each, every session
   * (`personalData.maskSensitiveColumns`); absent: shown as they are.
   */
  readonly maskSensitiveColumns?: boolean
}

/**
 * The machine policy's export rules (`exports` in policy-schema.ts), the same for every profile: the core refuses
 * what they forbid (src/main/core/policy/export-rules.ts), and the renderer disables it with the same words.
 */
export interface ExportRulesView {
  /** false: exports are written to Excel (.xlsx) only. */
  readonly csvAllowed: boolean
  /** The most employees one export may hold; undefined: no limit but the app's own. */
  readonly maxRows?: number | undefined
  /**
   * Whether exports, print and copy carry sensitive columns (shared/sensitive-fields.ts): `exclude` never, `ask`
   * only when the clerk says so in the export's question (`sensitiveColumnsQuestion`); absent: `include`.
   */
  readonly sensitiveColumns?: SensitiveColumnsRule
}

/** What `exports.sensitiveColumns` may say (policy-schema.ts), and so `ExportRulesView.sensitiveColumns`. */
export const SENSITIVE_COLUMNS_RULES = ['include', 'exclude', 'ask'] as const
export type SensitiveColumnsRule = (typeof SENSITIVE_COLUMNS_RULES)[number]

/** The clerk's answer to the export's question under `ask`, sent with the request (ExportRequest). */
export type SensitiveColumnsAnswer = 'include' | 'exclude'

/**
 * Whether an export, a printed page or a copy carries sensitive columns (shared/sensitive-fields.ts) under the
 * policy's `exports.sensitiveColumns`: `include` (or none) yes, `exclude` never, `ask` only when the clerk
 * answered `include` to the export's question (a print or a copy, which ask nothing, leave them out); an
 * `exclude` answer leaves them out under any rule.
 */
export function sensitiveColumnsIncluded(
  rules: Pick<ExportRulesView, 'sensitiveColumns'>,
  answer?: SensitiveColumnsAnswer,
): boolean {
  if (answer === 'exclude') return false
  const rule = rules.sensitiveColumns ?? 'include'
  return rule === 'include' || (rule === 'ask' && answer === 'include')
}

/** What the export asks under `exports.sensitiveColumns: "ask"`, naming the sensitive columns it would write. */
export function sensitiveColumnsQuestion(labels: readonly string[]): string {
  const one = labels.length === 1
  const named = one ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`
  return (
    `${named} ${one ? 'holds' : 'hold'} sensitive personal data. Your organisation asks you to choose whether ` +
    `this export includes ${one ? 'it' : 'them'}.`
  )
}

/** Why an export is refused when every column it would write is sensitive and the policy leaves them out. */
export const ONLY_SENSITIVE_COLUMNS_MESSAGE =
  'Every column of this export holds sensitive personal data, which your organisation keeps out of exports. ' +
  'Choose other columns and export again.'

/** No export rules: every format, any number of rows. */
export const NO_EXPORT_RULES: ExportRulesView = { csvAllowed: true, maxRows: undefined }

/** Why CSV is not offered, and why a CSV export is refused, when the policy says `exports.csvAllowed: false`. */
export const CSV_NOT_ALLOWED_MESSAGE = 'Your organisation allows exports to Excel (.xlsx) only.'

/** Why an export of `rows` employees is refused when the policy allows at most `maxRows` in one export. */
export function tooManyRowsMessage(rows: number, maxRows: number): string {
  const count = (n: number): string => n.toLocaleString('en')
  return (
    `This export holds ${count(rows)} employees; your organisation allows at most ${count(maxRows)} in one ` +
    'export. Narrow the search or filters, or export fewer rows.'
  )
}

/** What the clerk is told once after saved employees were deleted for their age (`personalData`). */
export function retentionNotice(days: number): string {
  return `Saved employees older than ${days} days were deleted by your organisation's policy.`
}

/** "800 saved employees", the count in the clerk's regional formats (`locale`, locale-format.ts). */
function savedEmployees(count: number, locale: string): string {
  return `${formatNumber(count, locale)} saved ${count === 1 ? 'employee' : 'employees'}`
}

/** What a sign-out under `clearOnSignOut` deletes: the profile's saved employees and those it has set aside. */
export interface SignOutDeletes {
  readonly saved: number
  readonly setAside: number
}

/** "the 5,000 saved employees of Acme and the 4,000 set aside", or either alone. */
function deletedEmployees(deletes: SignOutDeletes, profile: string, locale: string): string {
  const aside = `${formatNumber(deletes.setAside, locale)} ${deletes.setAside === 1 ? 'employee' : 'employees'} set aside`
  if (deletes.saved === 0) return `the ${aside} from ${profile}`
  const saved = `the ${savedEmployees(deletes.saved, locale)} of ${profile}`
  return deletes.setAside === 0
    ? saved
    : `${saved} and the ${formatNumber(deletes.setAside, locale)} set aside`
}

/** What Sign out asks first when the policy deletes the profile's saved (and set-aside) employees at sign-out. */
export function signOutDeletesQuestion(deletes: SignOutDeletes, profile: string, locale: string): string {
  return `Signing out also deletes ${deletedEmployees(deletes, profile, locale)}, as your organisation requires.`
}

/** What the clerk is told once after a sign-out deleted the profile's saved employees (`clearOnSignOut`). */
export function signOutDeletedNotice(deletes: SignOutDeletes, profile: string, locale: string): string {
  const one = deletes.saved + deletes.setAside === 1
  return (
    `Signed out: ${deletedEmployees(deletes, profile, locale)} ${one ? 'was' : 'were'} deleted, as ` +
    'your organisation requires. Sign in and sync to see employees again.'
  )
}

/** A field the policy may lock: a settings field, or the client secret (kept in the secret store, not the settings). */
export type PolicyLockedField = SettingsField | 'clientSecret'

/** What a locked field says beside itself. */
export const POLICY_LOCKED_LABEL = 'Set by your organisation'

/** The first words of the message a policy that could not be read leaves (the reason follows). */
export const POLICY_PROBLEM_PREFIX = "Your organisation's settings for RosterDesk could not be read:"

/** No machine policy: nothing locked, nothing to say. */
export const NO_POLICY_VIEW: PolicyView = {
  source: undefined,
  lockedFields: [],
  managedProfile: false,
  problem: undefined,
  exports: NO_EXPORT_RULES,
  notices: [],
}
