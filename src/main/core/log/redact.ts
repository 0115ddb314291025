/**
 * A last line of defence for log lines: callers already leave secrets out, but a URL or an error message from a
 * library may carry one. Query values of OAuth parameters, bearer tokens and JSON token fields are masked.
 */
const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(Bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi, '$1 [redacted]'],
  [
    /([?&#](?:code|state|access_token|accessToken|refresh_token|refreshToken|client_secret|clientSecret|id_token)=)[^&#\s]*/gi,
    '$1[redacted]',
  ],
  [
    /("(?:access_token|accessToken|refresh_token|refreshToken|clientSecret|client_secret|code|tkn)"\s*:\s*")[^"]*(")/gi,
    '$1[redacted]$2',
  ],
]

export function redactSecrets(line: string): string {
  let out = line
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement)
  return out
}

/** The logger core components accept: levels only, every line passes through redactSecrets. */
export interface AppLogger {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

export function createLogger(write: (level: 'info' | 'warn' | 'error', line: string) => void): AppLogger {
  return {
    info: (message) => write('info', redactSecrets(message)),
    warn: (message) => write('warn', redactSecrets(message)),
    error: (message) => write('error', redactSecrets(message)),
  }
}
