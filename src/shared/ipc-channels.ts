/**
 * Channel names only, free of zod, so the sandboxed preload can allowlist channels without bundling schemas.
 * `ipc-contract.ts` checks at compile time that its maps have exactly these keys.
 */
export const INVOKE_CHANNELS = [
  'app:get-info',
  'auth:get-state',
  'auth:sign-in',
  'auth:cancel-sign-in',
  'auth:sign-out',
  'settings:get',
  'settings:update',
  'settings:set-client-secret',
  'profiles:list',
  'profiles:switch',
  'profiles:create',
  'profiles:restore-set-aside',
  'profiles:rename',
  'profiles:delete',
  'sync:start',
  'sync:cancel',
  'sync:get-status',
  'employees:query',
  'employees:get',
  'employees:columns',
  'employees:changes',
  'changes:history',
  'changes:list',
  'changes:export',
  'employees:lookup-service',
  'employees:suggest',
  'export:start',
  'export:cancel',
  'export:show-in-folder',
  'export:print',
  'export:copy-rows',
  'export:history',
  'diagnostics:save',
  'diagnostics:show-in-folder',
  'views:list',
  'views:save',
  'views:rename',
  'views:delete',
  'views:get-current',
  'views:set-current',
  'network:check',
  'network:choose-certificates',
  'network:remove-certificates',
  'network:forget-proxy-password',
  'network:answer-proxy-sign-in',
  'updates:get-state',
  'updates:check',
  'updates:restart',
] as const

export const EVENT_CHANNELS = [
  'auth:changed',
  'sync:progress',
  'sync:finished',
  'export:progress',
  'profiles:changed',
  'app:command',
  'query:preparing',
  'network:proxy-sign-in',
  'updates:state',
] as const

export type InvokeChannelName = (typeof INVOKE_CHANNELS)[number]
export type EventChannelName = (typeof EVENT_CHANNELS)[number]

export function isInvokeChannel(value: unknown): value is InvokeChannelName {
  return typeof value === 'string' && (INVOKE_CHANNELS as readonly string[]).includes(value)
}

export function isEventChannel(value: unknown): value is EventChannelName {
  return typeof value === 'string' && (EVENT_CHANNELS as readonly string[]).includes(value)
}
