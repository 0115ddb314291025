import { net, protocol } from 'electron'
import { pathToFileURL } from 'node:url'
import { sep } from 'node:path'
import { APP_SCHEME, resolveAppFile } from './window-and-startup/window-security'

/** Must run before `app` is ready: the scheme needs the privileges of a standard, secure origin. */
export function registerAppSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ])
}

/** Serves the built renderer from its folder and nothing else (checklist: a custom protocol, not file://). */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(request.url, rendererDir, sep === '\\' ? '\\' : '/')
    if (!file) return new Response('Not found', { status: 404 })
    return net.fetch(pathToFileURL(file).toString())
  })
}
