import { redactSecrets } from '../log/redact'

/** What a replaced value became, by kind; README.txt counts them. */
export const REDACTION_KINDS = ['credential', 'token', 'e-mail', 'UUID', 'IBAN'] as const
export type RedactionKind = (typeof REDACTION_KINDS)[number]

type Rule = readonly [
  kind: RedactionKind,
  pattern: RegExp,
  replace: (match: string, ...groups: string[]) => string,
]

/** A value's key names one of these: its value goes whatever it looks like ("password=hunter2"). */
const SECRET_KEYS =
  'access_?token|refresh_?token|id_?token|client_?secret|password|passwd|secret|token|api_?key|authorization|cookie|cache_?key'

/**
 * The diagnostics writer's own rules, a second line of defence after the log's (log/redact.ts): whatever looks
 * like a credential, a token, an e-mail address, a UUID or an IBAN is replaced by its kind in brackets. The order
 * matters: credentials and JWTs before the generic token rule, e-mails before UUIDs (an address may hold one).
 */
const RULES: readonly Rule[] = [
  // A user name and password in an address (a proxy's): scheme://user:pass@host.
  ['credential', /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@[\]]+@/gi, (_m, scheme) => `${scheme}[credential]@`],
  [
    'credential',
    /\b(Bearer|Basic|Negotiate|NTLM)\s+[A-Za-z0-9\-._~+/]{6,}=*/g,
    (_m, scheme) => `${scheme} [credential]`,
  ],
  [
    'credential',
    new RegExp(
      `((?<![A-Za-z0-9_])(?:${SECRET_KEYS})["']?\\s*[:=]\\s*["']?)(?!\\[|(?:true|false|null)\\b)[^\\s"'&,;}]+`,
      'gi',
    ),
    (_m, key) => `${key}[credential]`,
  ],
  ['token', /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, () => '[token]'],
  ['e-mail', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, () => '[e-mail]'],
  ['UUID', /\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b/gi, () => '[UUID]'],
  ['IBAN', /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g, () => '[IBAN]'],
  // A run of 20 or more letters, digits, - and _ holding both letters and digits: an opaque token or key.
  [
    'token',
    /(?<![A-Za-z0-9_\-+/=])[A-Za-z0-9_\-+/]{20,}={0,2}(?![A-Za-z0-9_\-+/=])/g,
    (match) => (/\d/.test(match) && /[A-Za-z]/.test(match) && !match.includes('/') ? '[token]' : match),
  ],
]

/**
 * Applies the rules to every text of one diagnostics file, counting what it replaced. `keep` holds values the
 * writer itself put there from fields that are shown on purpose (a profile's client ID and tenant, a policy's
 * sensitivity label GUID): they stay even when they look like a UUID.
 */
export class DiagnosticsRedactor {
  private readonly counts = new Map<RedactionKind, number>()

  constructor(private readonly keep: ReadonlySet<string> = new Set()) {}

  /** `text` with the log's redaction, then every rule, applied. */
  text(text: string): string {
    let out = redactSecrets(text)
    for (const [kind, pattern, replace] of RULES) {
      out = out.replace(pattern, (match: string, ...groups: unknown[]) => {
        if (this.keep.has(match)) return match
        const replaced = replace(
          match,
          ...groups.filter((group): group is string => typeof group === 'string'),
        )
        if (replaced !== match) this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1)
        return replaced
      })
    }
    return out
  }

  /** How many values were replaced, by kind (kinds never met are absent). */
  replaced(): ReadonlyMap<RedactionKind, number> {
    return this.counts
  }

  /** Every value replaced, all kinds together. */
  total(): number {
    let sum = 0
    for (const count of this.counts.values()) sum += count
    return sum
  }
}
