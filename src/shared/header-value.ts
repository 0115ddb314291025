/**
 * Whether `value` can travel as an HTTP request header's value exactly as written: visible ASCII (U+0021–U+007E),
 * with a space or tab only between visible characters. The one rule for every value RosterDesk puts in a header
 * that came from elsewhere: the access token (Authorization) and the tenant ID (vnd.a1.tenant-id); the refresh
 * token, sent in a JSON body, is held to it too, since RFC 6749 (Appendix A.12, A.17) makes both tokens
 * visible ASCII and one that is not marks the whole answer as broken.
 *
 * It is the part every stack on the way carries unchanged (RFC 9110 §5.5's field-value less obs-text):
 * - Fetch's `Headers` (Node's undici, and Electron's `net.fetch`, which builds a Fetch Request first:
 *   lib/browser/api/net-fetch.ts) strips a leading or trailing space or tab, throws on CR, LF and NUL and on a
 *   character past U+00FF, and sends U+0080–U+00FF as single Latin-1 bytes, not the UTF-8 the service wrote;
 * - Node's `http` refuses every control character and DEL (`validateHeaderValue`);
 * - Electron's `ClientRequest.setHeader` refuses what Chromium's `HttpUtil::IsValidHeaderValue` refuses (NUL, CR,
 *   LF: lib/common/api/net-client-request.ts, shell/common/api/electron_api_net.cc).
 * A value outside it is either refused by the request (after which a retry fails the same way) or sent changed.
 */
export function isHeaderValueCarried(value: string): boolean {
  return /^[\x21-\x7e]+(?:[ \t]+[\x21-\x7e]+)*$/.test(value)
}
