import type { AskingFrame, MessageBoxAnswer } from './electron-stand-in'
import type { AuthInfo } from './utility-net'

/** Messages between a shell test and its child process running the built main bundle (boot.ts). */
export interface IpcSender {
  readonly webContentsId: number
  readonly frameUrl: string
}

export type ParentMessage = { readonly id: number } & (
  | { readonly type: 'snapshot' }
  | {
      readonly type: 'invoke'
      readonly channel: string
      readonly args: unknown[]
      readonly sender: IpcSender
    }
  | { readonly type: 'app-event'; readonly name: string; readonly args: unknown[] }
  | { readonly type: 'menu-click'; readonly path: string[] }
  | { readonly type: 'set-save-path'; readonly path: string | undefined }
  | { readonly type: 'set-open-path'; readonly path: string | undefined }
  | { readonly type: 'answer-message-boxes'; readonly answers: MessageBoxAnswer[] }
  | { readonly type: 'verify-certificate'; readonly partition: string; readonly request: unknown }
  | { readonly type: 'set-online'; readonly online: boolean }
  | { readonly type: 'emit-login'; readonly authInfo: AuthInfo }
  | {
      readonly type: 'select-client-certificate'
      readonly url: string
      readonly certificates: ReadonlyArray<{ readonly data: string; readonly subjectName: string }>
    }
  | { readonly type: 'quit' }
  | { readonly type: 'write-clipboard'; readonly frame: AskingFrame }
  | { readonly type: 'request-permission'; readonly permission: string; readonly frame: AskingFrame }
  | { readonly type: 'check-permission'; readonly permission: string; readonly frame: AskingFrame }
  | { readonly type: 'second-instance'; readonly argv: string[]; readonly workingDirectory: string }
  | { readonly type: 'open-url'; readonly url: string }
  | { readonly type: 'close-window'; readonly windowId: number }
  | { readonly type: 'crash-renderer'; readonly windowId: number }
)

export type ChildMessage =
  | { readonly type: 'booting' }
  | { readonly type: 'reply'; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly type: 'reply'; readonly id: number; readonly ok: false; readonly error: string }
  | { readonly type: 'event'; readonly channel: string; readonly payload: unknown }
  | { readonly type: 'open-external'; readonly url: string }
  | { readonly type: 'exit'; readonly code: number; readonly final: FinalRecord }

/** What the stand-in recorded up to the exit, sent with it because the process is gone afterwards. */
export interface FinalRecord {
  readonly errorBoxes: ReadonlyArray<{ title: string; message: string }>
  readonly lockReleased: boolean
  readonly setPaths: ReadonlyArray<{ name: string; path: string }>
  readonly relaunches: ReadonlyArray<{ args?: string[]; execPath?: string }>
  readonly appEvents: readonly string[]
}
