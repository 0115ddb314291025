/**
 * Where sign-in reports what it did. Messages never carry a secret: no tokens, codes, client secret, state
 * values or callback query strings, only what happened and why.
 */
export interface AuthLogger {
  info(message: string): void
  warn(message: string): void
}

export const silentAuthLogger: AuthLogger = {
  info: () => undefined,
  warn: () => undefined,
}
