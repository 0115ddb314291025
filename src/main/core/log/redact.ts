/**
 * A last line of defence for log lines: callers already leave secrets out, but a URL or an error message from a
 * library may carry one. Query values of OAuth parameters, bearer tokens, (Proxy-)Authorization Basic credentials, a URL's user name and
 * password and JSON token fields are masked, and so
 * is the piece of input V8 quotes in a JSON.parse error (a token response or an employee row, cut anywhere).
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
  // A URL's user name and password (a proxy's, as HTTPS_PROXY may carry them) and a Basic credential.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi, '$1[redacted]@'],
  [/(authorization["']?\s*[:=]\s*["']?Basic)\s+[A-Za-z0-9+/]+=*/gi, '$1 [redacted]'],
  [/(?:\.\.\.)?"[^\n]{0,40}?"(?:\.\.\.)? is not valid JSON/g, '[input not shown] is not valid JSON'],
]

export function redactSecrets(line: string): string {
  let out = line
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement)
  return out
}
