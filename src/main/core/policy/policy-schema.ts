import * as z from 'zod/mini'
import { SENSITIVE_COLUMNS_RULES } from '../../../shared/policy-view'
import { baseUrlSchema, environmentSchema, settingsSchema } from '../../../shared/settings-schema'
import {
  clientCertificateProblem,
  normalizeProfileName,
  PROFILE_NAME_MAX_LENGTH,
  SYNC_LIMITS,
} from '../../../shared/settings-rules'

/**
 * The machine policy (issue 25): what an organisation's IT sets for every user of a computer, read at start by
 * the app and the CLI from the machine-wide file of the OS (`policy-sources.ts`) or, on Windows, the registry key
 * `HKLM\Software\Policies\RosterDesk` (`POLICY_REGISTRY_VALUES`). Validated with the settings' own field schemas,
 * so a value means the same thing in a policy as in Settings, and strict everywhere: an unknown key (a typo) is
 * refused by name, and a policy with any problem is ignored as a whole, never half-applied.
 *
 * Semantics, one place (docs/deploying.md explains them to IT):
 * - `profiles`: created at start when no profile has that name (names compare ignoring case, and two in the policy
 *   may not share one); a field listed in its `locked` is also enforced on every read of that profile's settings
 *   and refused on every write (IPC and CLI); unlocked fields are only the starting values. Locking `baseUrl` locks `environment` too: the address is
 *   that environment's, and another environment's address would be the clerk's. A policy profile cannot be
 *   renamed or deleted. `clientSecret` is a secret: held by main/core only, never shown, logged or sent to the
 *   renderer; it is in force when given (RFC 8252 §8.5: a native app's secret is not confidential, and every
 *   local user can read the policy), but only sent to the profile's `baseUrl`: while the profile's environment
 *   and address are the policy's (a profile without `baseUrl` never sends it).
 * - `network`: every field given is in force for every profile and wins over the command line, the environment
 *   and the profile (`proxySourceInForce`'s `policy` slot).
 * - `updates`, `exports`, `personalData`: machine-wide rules, always in force.
 */

/** Policy profile fields a policy may lock (the settings fields they fill are `LOCKABLE_FIELD_SETTINGS`). */
export const LOCKABLE_PROFILE_FIELDS = [
  'environment',
  'baseUrl',
  'clientId',
  'redirectUri',
  'tenantId',
  'scopes',
  'syncScope',
] as const
export type LockableProfileField = (typeof LOCKABLE_PROFILE_FIELDS)[number]

const s = settingsSchema.shape

/** A GUID: 8-4-4-4-12 hexadecimal digits, any case (kept lower case, as the MIP SDK writes one). */
const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Control characters and broken surrogate halves, which a document property (XML text) cannot hold. */
const NOT_PROPERTY_TEXT =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** A GUID (`GUID_PATTERN`), kept lower case as the MIP SDK writes one; the message names the key and what it is. */
function guidSchema(key: string, what: string) {
  return z
    .string({ error: `"${key}" must be text: ${what}.` })
    .check(
      z.trim(),
      z.regex(GUID_PATTERN, `"${key}" must be ${what}, a GUID like 00000000-0000-0000-0000-000000000000.`),
      z.toLowerCase(),
    )
}

const policyProfileSchema = z
  .strictObject({
    name: z
      .string({ error: 'A profile in the policy needs a name (text).' })
      .check(
        z.overwrite(normalizeProfileName),
        z.minLength(1, 'A profile in the policy needs a name.'),
        z.maxLength(
          PROFILE_NAME_MAX_LENGTH,
          `A profile's name has at most ${PROFILE_NAME_MAX_LENGTH} characters.`,
        ),
      ),
    environment: z.optional(environmentSchema),
    /** The service address for the profile's environment (Staging or Production). */
    baseUrl: z.optional(baseUrlSchema('service')),
    clientId: z.optional(s.clientId),
    /** A secret: see above. */
    clientSecret: z.optional(z.string({ error: 'The client secret must be text.' })),
    redirectUri: z.optional(s.redirectUri),
    tenantId: z.optional(s.tenantId),
    scopes: z.optional(s.scopes),
    syncScope: z.optional(s.syncScope),
    /** The fields above that the clerk cannot change. */
    locked: z.optional(
      z.array(
        z.enum(LOCKABLE_PROFILE_FIELDS, {
          error: `A locked field is one of: ${LOCKABLE_PROFILE_FIELDS.join(', ')}.`,
        }),
      ),
    ),
  })
  .check(
    // A base URL is one environment's address, so the policy says which; a locked field needs its value.
    z.superRefine((profile, ctx) => {
      if (
        profile.baseUrl !== undefined &&
        profile.environment !== 'staging' &&
        profile.environment !== 'production'
      )
        ctx.addIssue({
          code: 'custom',
          path: ['environment'],
          message:
            'A profile with a "baseUrl" needs "environment": "staging" or "production" (the address is that one\'s).',
        })
      for (const field of profile.locked ?? []) {
        if (profile[field] === undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['locked'],
            message: `"${field}" is locked but the profile gives no value for it.`,
          })
      }
    }),
  )
export type PolicyProfile = z.output<typeof policyProfileSchema>

export const UPDATE_CHANNELS = ['stable', 'beta'] as const
export type UpdateChannel = (typeof UPDATE_CHANNELS)[number]

/** The largest export a policy may allow: the sync's own ceiling on employees. */
const exportRowsRange = { min: 1, max: SYNC_LIMITS.maxEmployees.max }

/**
 * A Microsoft Purview sensitivity label every XLSX carries (export/sensitivity-label.ts): the label's GUID, its
 * name in the organisation and the Microsoft Entra tenant (site) it belongs to.
 */
const sensitivityLabelSchema = z.strictObject(
  {
    id: guidSchema('exports.sensitivityLabel.id', "the label's GUID"),
    name: z.string({ error: '"exports.sensitivityLabel.name" must be text.' }).check(
      z.trim(),
      z.minLength(1, '"exports.sensitivityLabel.name" is the label\'s name, e.g. "Confidential – HR".'),
      z.maxLength(255, '"exports.sensitivityLabel.name" has at most 255 characters.'),
      z.refine(
        (name) => !NOT_PROPERTY_TEXT.test(name),
        '"exports.sensitivityLabel.name" holds a control character or a broken character.',
      ),
    ),
    siteId: guidSchema('exports.sensitivityLabel.siteId', "your Microsoft Entra tenant's ID"),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `"exports.sensitivityLabel" holds "id", "name" and "siteId" only, not ${issue.keys.join(', ')}.`
        : '"exports.sensitivityLabel" must be an object with "id", "name" and "siteId".',
  },
)
export type SensitivityLabel = z.output<typeof sensitivityLabelSchema>

export const policySchema = z.strictObject(
  {
    profiles: z.optional(
      z.array(policyProfileSchema, { error: '"profiles" must be a list of profiles.' }).check(
        // Names compare ignoring case (`PolicyRules.profileFor`): a second "ACME" beside "Acme" would be half
        // applied, so the policy is refused, naming the second.
        z.superRefine((profiles, ctx) => {
          const first = new Map<string, string>()
          profiles.forEach((profile, index) => {
            const key = profile.name.toLowerCase()
            const earlier = first.get(key)
            if (earlier === undefined) {
              first.set(key, profile.name)
              return
            }
            ctx.addIssue({
              code: 'custom',
              path: [index, 'name'],
              message: `"${profile.name}" is the name of another profile in the policy ("${earlier}"); names compare ignoring case.`,
            })
          })
        }),
      ),
    ),
    network: z.optional(
      z
        .strictObject({
          proxyMode: z.optional(s.proxyMode),
          proxyUrl: z.optional(s.proxyUrl),
          proxyBypass: z.optional(s.proxyBypass),
          pacUrl: z.optional(s.pacUrl),
          extraCertificatesFile: z.optional(s.extraCertificatesFile),
          /** The client certificate sent to every profile's service, by subject and issuer (both or neither). */
          clientCertificateSubject: z.optional(s.clientCertificateSubject),
          clientCertificateIssuer: z.optional(s.clientCertificateIssuer),
        })
        .check(
          // A proxy mode in force needs its address from the policy too, never a clerk's leftover one.
          z.superRefine((network, ctx) => {
            if (network.proxyMode === 'fixed' && network.proxyUrl === undefined)
              ctx.addIssue({
                code: 'custom',
                path: ['proxyUrl'],
                message: '"proxyMode": "fixed" needs "proxyUrl".',
              })
            const certificate = clientCertificateProblem(
              network.clientCertificateSubject ?? '',
              network.clientCertificateIssuer ?? '',
            )
            if (certificate !== undefined)
              ctx.addIssue({
                code: 'custom',
                path: [
                  network.clientCertificateSubject === undefined
                    ? 'clientCertificateSubject'
                    : 'clientCertificateIssuer',
                ],
                message: '"clientCertificateSubject" and "clientCertificateIssuer" go together.',
              })
            if (network.proxyMode === 'pac' && network.pacUrl === undefined)
              ctx.addIssue({
                code: 'custom',
                path: ['pacUrl'],
                message: '"proxyMode": "pac" needs "pacUrl".',
              })
          }),
        ),
    ),
    updates: z.optional(
      z.strictObject({
        /** false: no update checks at all (About says "Turned off by your organisation"). */
        enabled: z.optional(z.boolean({ error: '"updates.enabled" must be true or false.' })),
        channel: z.optional(z.enum(UPDATE_CHANNELS, { error: '"updates.channel" is "stable" or "beta".' })),
        /** An https:// generic feed that replaces the one set at build time. */
        feedUrl: z.optional(baseUrlSchema('update feed')),
      }),
    ),
    exports: z.optional(
      z.strictObject({
        csvAllowed: z.optional(z.boolean({ error: '"exports.csvAllowed" must be true or false.' })),
        maxRows: z.optional(
          z
            .int({ error: '"exports.maxRows" must be a whole number.' })
            .check(z.gte(exportRowsRange.min), z.lte(exportRowsRange.max)),
        ),
        /** The Microsoft Purview sensitivity label every XLSX carries (export/sensitivity-label.ts). */
        sensitivityLabel: z.optional(sensitivityLabelSchema),
        /** Whether exports, print and copy carry sensitive columns (export-rules.ts); 'include' when absent. */
        sensitiveColumns: z.optional(
          z.enum(SENSITIVE_COLUMNS_RULES, {
            error: '"exports.sensitiveColumns" is "include", "exclude" or "ask".',
          }),
        ),
      }),
    ),
    personalData: z.optional(
      z.strictObject({
        /** Saved employees (set-aside copies included) not synced for this many days are deleted at start. */
        deleteUnsyncedAfterDays: z.optional(
          z
            .int({ error: '"personalData.deleteUnsyncedAfterDays" must be a whole number.' })
            .check(z.gte(1), z.lte(3650)),
        ),
        /** Days an entry of the export record is kept (export-record.ts); 365 when absent. */
        exportRecordDays: z.optional(
          z
            .int({ error: '"personalData.exportRecordDays" must be a whole number.' })
            .check(z.gte(1), z.lte(3650)),
        ),
        /** Sensitive columns (shared/sensitive-fields.ts) shown masked until the clerk shows each, per session. */
        maskSensitiveColumns: z.optional(
          z.boolean({ error: '"personalData.maskSensitiveColumns" must be true or false.' }),
        ),
        /** Signing out of a profile also deletes its saved employees. */
        clearOnSignOut: z.optional(
          z.boolean({ error: '"personalData.clearOnSignOut" must be true or false.' }),
        ),
        /**
         * Where the OS offers no keychain, the app keeps the saved employees' key in an owner-only file (so they
         * survive a restart) instead of in memory only (app-cache-key.ts).
         */
        cacheKeyFile: z.optional(z.boolean({ error: '"personalData.cacheKeyFile" must be true or false.' })),
      }),
    ),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `These are not RosterDesk policy keys: ${issue.keys.slice(0, 5).join(', ')}.`
        : 'The policy must be a JSON object.',
  },
)
export type MachinePolicy = z.output<typeof policySchema>

/** The registry key Group Policy and Intune write RosterDesk's policy to. */
export const POLICY_REGISTRY_KEY = 'HKLM\\Software\\Policies\\RosterDesk'

/**
 * The registry's values under `HKLM\Software\Policies\RosterDesk` (what Group Policy and Intune write; the ADMX
 * template in resources/policy/ names exactly these): scalar keys as one value each, and the profiles — a nested
 * list ADMX cannot express — as one REG_SZ holding the JSON list. The key's values (registry-query.ts) are read into a policy object
 * by this table (a REG_DWORD read as a number, 0/1 as false/true where `boolean` says the schema wants one), then
 * validated by `policySchema` like a file. Names compare ignoring case, as the registry's do.
 */
export const POLICY_REGISTRY_VALUES = [
  { value: 'Profiles', type: 'REG_SZ', path: ['profiles'], json: true },
  { value: 'ProxyMode', type: 'REG_SZ', path: ['network', 'proxyMode'] },
  { value: 'ProxyUrl', type: 'REG_SZ', path: ['network', 'proxyUrl'] },
  { value: 'ProxyBypass', type: 'REG_SZ', path: ['network', 'proxyBypass'] },
  { value: 'PacUrl', type: 'REG_SZ', path: ['network', 'pacUrl'] },
  { value: 'ExtraCertificatesFile', type: 'REG_SZ', path: ['network', 'extraCertificatesFile'] },
  { value: 'ClientCertificateSubject', type: 'REG_SZ', path: ['network', 'clientCertificateSubject'] },
  { value: 'ClientCertificateIssuer', type: 'REG_SZ', path: ['network', 'clientCertificateIssuer'] },
  { value: 'UpdatesEnabled', type: 'REG_DWORD', path: ['updates', 'enabled'], boolean: true },
  { value: 'UpdateChannel', type: 'REG_SZ', path: ['updates', 'channel'] },
  { value: 'UpdateFeedUrl', type: 'REG_SZ', path: ['updates', 'feedUrl'] },
  { value: 'CsvExportsAllowed', type: 'REG_DWORD', path: ['exports', 'csvAllowed'], boolean: true },
  { value: 'MaxExportRows', type: 'REG_DWORD', path: ['exports', 'maxRows'] },
  { value: 'SensitivityLabel', type: 'REG_SZ', path: ['exports', 'sensitivityLabel'], json: true },
  { value: 'SensitiveColumns', type: 'REG_SZ', path: ['exports', 'sensitiveColumns'] },
  { value: 'DeleteUnsyncedAfterDays', type: 'REG_DWORD', path: ['personalData', 'deleteUnsyncedAfterDays'] },
  { value: 'ExportRecordDays', type: 'REG_DWORD', path: ['personalData', 'exportRecordDays'] },
  {
    value: 'MaskSensitiveColumns',
    type: 'REG_DWORD',
    path: ['personalData', 'maskSensitiveColumns'],
    boolean: true,
  },
  { value: 'ClearOnSignOut', type: 'REG_DWORD', path: ['personalData', 'clearOnSignOut'], boolean: true },
  { value: 'CacheKeyFile', type: 'REG_DWORD', path: ['personalData', 'cacheKeyFile'], boolean: true },
] as const
