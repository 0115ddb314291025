import Module from 'node:module'
import { createElectronStandIn } from './electron-stand-in'
import type { ParentMessage, ChildMessage } from './protocol'

/**
 * The child process of a shell test: installs the Electron stand-in as the `electron` module, then loads the
 * built main bundle named by ROSTERDESK_SHELL_BUNDLE exactly as Electron would, and answers the test's commands
 * over the IPC channel (see protocol.ts).
 */
const bundle = required('ROSTERDESK_SHELL_BUNDLE')
const execPath = process.env['STANDIN_EXEC_PATH']
const registeredHandlerPath = process.env['STANDIN_REGISTERED_HANDLER']
const systemLocale = process.env['STANDIN_SYSTEM_LOCALE']
const backend = process.env['STANDIN_SAFE_STORAGE_BACKEND']
const keychain = process.env['STANDIN_KEYCHAIN']
const standIn = createElectronStandIn({
  userData: required('STANDIN_USER_DATA'),
  isPackaged: process.env['STANDIN_PACKAGED'] === '1',
  appPath: required('STANDIN_APP_PATH'),
  version: process.env['STANDIN_APP_VERSION'] ?? '0.1.0-shell-test',
  ...(execPath === undefined ? {} : { execPath }),
  ...(registeredHandlerPath === undefined ? {} : { registeredHandlerPath }),
  ...(systemLocale === undefined ? {} : { systemLocale }),
  ...(backend === 'basic_text' || backend === 'kwallet5' || backend === 'gnome_libsecret'
    ? { safeStorageBackend: backend }
    : {}),
  ...(keychain === undefined ? {} : { keychain }),
})
// The OS the shell believes it runs on (its window-all-closed and protocol rules differ), for this process only:
// Node's own modules were set up for the real one before this line.
const platform = process.env['STANDIN_PLATFORM']
if (platform !== undefined) Object.defineProperty(process, 'platform', { value: platform })
// What the app sees as its executable (the protocol registration names it), and its command line as Electron's
// packaged app has it: the executable, then the arguments it was started with (no boot script).
if (execPath !== undefined) Object.defineProperty(process, 'execPath', { value: execPath })
// Electron's `process.resourcesPath` (docs/api/process.md): the packaged app's resources folder, where
// electron-builder writes app-update.yml; by default the project's own resources/ (which holds none).
const resourcesPath = process.env['STANDIN_RESOURCES_PATH'] ?? `${required('STANDIN_APP_PATH')}/resources`
Object.defineProperty(process, 'resourcesPath', { value: resourcesPath, configurable: true })
process.argv = [process.execPath, ...process.argv.slice(2)]

function required(name: string): string {
  const value = process.env[name]
  if (value === undefined || value === '') throw new Error(`boot: ${name} is not set`)
  return value
}

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected || !process.send) return resolve()
    process.send(message, undefined, undefined, () => resolve())
  })
}

standIn.onSend((channel, payload) => void send({ type: 'event', channel, payload }))
standIn.onOpenExternal((url) => void send({ type: 'open-external', url }))
standIn.onExit((code) => {
  const { errorBoxes, lockReleased, setPaths, relaunches, appEvents } = standIn.record
  const final = { errorBoxes, lockReleased, setPaths, relaunches, appEvents }
  void send({ type: 'exit', code, final }).finally(() => process.exit(code))
})

process.on('message', (raw: ParentMessage) => {
  void answer(raw).then(
    (value) => send({ type: 'reply', id: raw.id, ok: true, value }),
    (error: unknown) =>
      send({
        type: 'reply',
        id: raw.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      }),
  )
})

async function answer(message: ParentMessage): Promise<unknown> {
  switch (message.type) {
    case 'snapshot': {
      const r = standIn.record
      return { ...r, handlers: Object.fromEntries(r.handlers), menu: standIn.menuSnapshot() }
    }
    case 'invoke':
      return standIn.invoke(message.channel, message.args, message.sender)
    case 'app-event':
      standIn.app.emit(message.name, ...message.args)
      return null
    case 'menu-click':
      standIn.clickMenu(message.path)
      return null
    case 'set-save-path':
      standIn.setSavePath(message.path)
      return null
    case 'set-open-path':
      standIn.setOpenPath(message.path)
      return null
    case 'answer-message-boxes':
      standIn.answerMessageBoxes(message.answers)
      return null
    case 'verify-certificate':
      return (await standIn.verifyCertificate(message.partition, message.request)) ?? null
    case 'set-online':
      standIn.setOnline(message.online)
      return null
    case 'emit-login':
      return standIn.emitLogin(message.authInfo)
    case 'select-client-certificate':
      return standIn.selectClientCertificate(message.url, message.certificates)
    case 'quit':
      ;(standIn.module['app'] as { quit(): void }).quit()
      return null
    case 'write-clipboard':
      return standIn.writeClipboard(message.frame)
    case 'request-permission':
      return standIn.requestPermission(message.permission, message.frame)
    case 'check-permission':
      return standIn.checkPermission(message.permission, message.frame)
    case 'second-instance':
      standIn.secondInstance(message.argv, message.workingDirectory)
      return null
    case 'open-url':
      standIn.openUrl(message.url)
      return null
    case 'close-window':
      standIn.closeWindow(message.windowId)
      return null
    case 'crash-renderer':
      standIn.crashRenderer(message.windowId)
      return null
  }
}

// The bundle's require('electron') (and electron-store's and electron-log's) resolve to the stand-in.
type Loader = (request: string, parent: unknown, isMain: boolean) => unknown
const moduleWithLoader = Module as unknown as { _load: Loader }
const originalLoad = moduleWithLoader._load
moduleWithLoader._load = function load(request, parent, isMain) {
  if (request === 'electron') return standIn.module
  return originalLoad.call(this, request, parent, isMain)
}
const loadBundle = Module.createRequire(__filename)
void send({ type: 'booting' }).then(() => loadBundle(bundle))
