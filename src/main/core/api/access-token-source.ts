/**
 * What API clients need from sign-in: a current access token, and one shared refresh when the service says the
 * token is no longer good. The sync engine depends on this interface only, never on how tokens were obtained.
 */
export interface AccessTokenSource {
  /** A usable access token; refreshes first when its expiry is known and near. Throws RosterDeskError('not-signed-in'). */
  getAccessToken(signal?: AbortSignal): Promise<string>
  /**
   * Called after a 401 with the token that was refused. Concurrent callers share one refresh; a caller whose
   * token was already replaced gets the new one without another refresh. A refused refresh signs the user out
   * and throws RosterDeskError('not-signed-in').
   */
  handleUnauthorized(rejectedToken: string, signal?: AbortSignal): Promise<string>
}
