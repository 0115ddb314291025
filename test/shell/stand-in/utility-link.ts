/**
 * Messages between the stand-in's UtilityProcess in main (electron-stand-in.ts) and the stand-in `net` in the
 * forked core process (utility-boot.ts), over a pipe of their own (fd 4), so the job channel (fd 3, Node's IPC)
 * carries exactly what Electron's parentPort would. One JSON object per line.
 */
import type { AuthInfo, LoginDetails } from './utility-net'
import type { StandInProxyConfig } from './proxy-rules'
import type { StandInVerifyRequest } from './tls-verify'

export const LINK_FD = 4

export type ToUtility =
  | { readonly type: 'proxy-config'; readonly id: number; readonly config: StandInProxyConfig }
  | {
      readonly type: 'login-answer'
      readonly id: number
      readonly credentials: readonly [string, string] | null
    }
  | { readonly type: 'online'; readonly value: boolean }
  | { readonly type: 'verify-answer'; readonly id: number; readonly result: number }
  /** Credentials another user of the session (a process, or main's net) cached: the session's auth cache. */
  | { readonly type: 'auth-cache'; readonly key: string; readonly value: string }

export type FromUtility =
  | { readonly type: 'proxy-config-applied'; readonly id: number }
  | { readonly type: 'net-request'; readonly method: string; readonly url: string; readonly route: string }
  /** Credentials this process's net cached: main keeps them in the session's auth cache. */
  | { readonly type: 'auth-cached'; readonly key: string; readonly value: string }
  | {
      readonly type: 'login'
      readonly id: number
      readonly details: LoginDetails
      readonly authInfo: AuthInfo
    }
  | { readonly type: 'verify-certificate'; readonly id: number; readonly request: StandInVerifyRequest }

/** Splits a stream of JSON lines into messages. */
export function onLines(stream: NodeJS.ReadableStream, listener: (message: unknown) => void): void {
  let buffered = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    buffered += chunk
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end)
      buffered = buffered.slice(end + 1)
      if (line.trim() !== '') listener(JSON.parse(line))
    }
  })
}
