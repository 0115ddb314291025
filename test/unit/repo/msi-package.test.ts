import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { UUID } from 'builder-util-runtime'
import { DebugLogger } from 'builder-util'
import { validateConfiguration } from 'app-builder-lib/out/util/config/config'
import { resolveFunction } from 'app-builder-lib/out/util/resolve'
import type { Configuration } from 'app-builder-lib'
import { describe, expect, it } from 'vitest'
import {
  addRosterDeskComponents,
  msiProjectCreated,
  POLICY_FOLDER_SDDL,
} from '../../../scripts/msi-project.mjs'
import { windowsRefusal } from '../../../src/main/core/policy/policy-file-trust'
import { schemeOf } from '../../../src/main/shell/adapters/deep-link'
import { DEFAULT_REDIRECT_URI } from '../../../src/main/core/settings/settings-defaults'
import {
  MSI_MARKER,
  MSI_UPDATES_OFF_REASON,
  isMsiInstall,
} from '../../../src/main/shell/window-and-startup/msi-install'

/**
 * The Windows MSI (issue 25, point 3; decision 045): electron-builder.json as electron-builder's own schema
 * validation judges it, and the WiX project it will build, rendered from electron-builder's own template and
 * rewritten by our hook, checked against the app's sign-in scheme and the marker the app reads. No WiX runs
 * here (it needs Windows or Wine): the desktop workflow builds, installs and uninstalls the MSI on Windows.
 */
const ROOT = resolve(__dirname, '../../..')
const requireHere = createRequire(__filename)
const configText = readFileSync(join(ROOT, 'electron-builder.json'), 'utf8')

interface MsiConfig {
  readonly win: { readonly target: string[] }
  readonly appId: string
  readonly productName: string
  readonly msi: {
    readonly perMachine: boolean
    readonly runAfterFinish: boolean
    readonly upgradeCode: string
    readonly artifactName: string
  }
  readonly msiProjectCreated: string
}
const config = JSON.parse(configText) as MsiConfig

/** The configuration as electron-builder loads it (the `$schema` key is for editors only). */
function builderConfiguration(): Configuration {
  const loaded = JSON.parse(configText) as Record<string, unknown>
  delete loaded['$schema']
  return loaded as Configuration
}

/** electron-builder's MSI template, compiled as MsiTarget.projectTemplate compiles it (app-builder-lib 26.17). */
function renderMsiTemplate(data: Record<string, unknown>): string {
  const ejs = requireHere('ejs') as { compile(template: string): (data: object) => string }
  const template = readFileSync(join(ROOT, 'node_modules/app-builder-lib/templates/msi/template.xml'), 'utf8')
    .replace(/{{/g, '<%')
    .replace(/}}/g, '%>')
    .replace(/\${([^}]+)}/g, '<%=$1%>')
  return ejs.compile(template)(data)
}

/** A project as electron-builder writes it for our config: per machine, no UI, the main executable's component. */
function renderedProject(): string {
  const exe = `${config.productName}.exe`
  return renderMsiTemplate({
    productName: config.productName,
    upgradeCode: config.msi.upgradeCode,
    version: '1.4.0.0',
    manufacturer: config.productName,
    compressionLevel: 'high',
    iconPath: null,
    iconId: 'RosterDeskIcon.exe',
    isRunAfterFinish: config.msi.runAfterFinish,
    isAssisted: false,
    isPerMachine: config.msi.perMachine,
    menuCategory: null,
    programFilesId: 'ProgramFiles64Folder',
    installationDirectoryWixName: config.productName,
    isCreateDesktopShortcut: true,
    isCreateStartMenuShortcut: true,
    dirs: '',
    files: `<Component>\n      <File Name="${exe}" Source="$(var.appDir)\\${exe}" ReadOnly="yes" KeyPath="yes" Id="mainExecutable"/>\n    </Component>`,
  })
}

/** The little of a DOM the checks read (xmldom's own types declare DOM globals that clash with Node's). */
interface XmlElement {
  getAttribute(name: string): string | null
  getElementsByTagName(name: string): ArrayLike<XmlElement>
  readonly parentNode: XmlElement | null
  readonly nodeName: string
}

function parseXml(text: string): XmlElement {
  const { DOMParser } = requireHere('@xmldom/xmldom') as {
    DOMParser: new () => { parseFromString(text: string, type: string): XmlElement }
  }
  return new DOMParser().parseFromString(text, 'text/xml')
}

function elements(root: XmlElement, name: string): XmlElement[] {
  return Array.from(root.getElementsByTagName(name))
}

describe('the MSI package', () => {
  it('is valid by electron-builder’s own configuration schema, which refuses a misspelt MSI option', async () => {
    await expect(
      validateConfiguration(builderConfiguration(), new DebugLogger(false)),
    ).resolves.toBeUndefined()
    const typo = builderConfiguration() as Configuration & { msi: Record<string, unknown> }
    typo.msi = { ...typo.msi, perMachin: true }
    await expect(validateConfiguration(typo, new DebugLogger(false))).rejects.toThrow(/configuration\.msi/)
  })

  it('is built beside the NSIS setup, per machine, without starting the app in the installing session', () => {
    expect(config.win.target).toEqual(['nsis', 'msi'])
    expect(config.msi.perMachine).toBe(true)
    expect(config.msi.runAfterFinish).toBe(false)
    expect(config.msi.artifactName).toBe('RosterDesk-${version}.${ext}')
    // The upgrade code is the one electron-builder derives from the appId (MsiTarget.upgradeCode), written down
    // so IT's detection rules and major upgrades keep working if the appId ever changes.
    const derived = UUID.v5(config.appId, UUID.parse('d752fe43-5d44-44d5-9fc9-6dd1bf19d5cc')).toUpperCase()
    expect(config.msi.upgradeCode).toBe(derived)
    expect(existsSync(join(ROOT, config.msiProjectCreated))).toBe(true)
  })

  it('has electron-builder find our hook by its own resolution (the export named after the hook)', async () => {
    const hook = (await resolveFunction(
      'module',
      config.msiProjectCreated,
      'msiProjectCreated',
      ROOT,
    )) as unknown as (path: string) => Promise<void>
    expect(hook.name).toBe(msiProjectCreated.name)
    // Run as electron-builder runs it, on the project file it wrote.
    const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-msi-'))
    try {
      const project = join(dir, 'project.wxs')
      writeFileSync(project, renderedProject())
      await hook(project)
      expect(readFileSync(project, 'utf8')).toBe(addRosterDeskComponents(renderedProject()))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('registers the sign-in scheme for every user, under HKLM, starting the installed executable', () => {
    const project = addRosterDeskComponents(renderedProject())
    const doc = parseXml(project)
    const group = elements(doc, 'ComponentGroup').find((g) => g.getAttribute('Id') === 'ProductComponents')
    expect(group).toBeDefined()
    const scheme = schemeOf(DEFAULT_REDIRECT_URI)
    const component = elements(group!, 'Component').find(
      (c) => c.getAttribute('Id') === 'RosterDeskSignInScheme',
    )
    const key = elements(component!, 'RegistryKey')[0]!
    expect(key.getAttribute('Root')).toBe('HKLM')
    expect(key.getAttribute('Key')).toBe(`Software\\Classes\\${scheme}`)
    const values = elements(key, 'RegistryValue').map((value) => ({
      key: value.parentNode?.getAttribute('Key'),
      name: value.getAttribute('Name'),
      value: value.getAttribute('Value'),
    }))
    const exe = `"[APPLICATIONFOLDER]${config.productName}.exe"`
    // The keys installer.nsh writes for NSIS, so protocol-client.ts finds Windows resolving the scheme to the
    // installed executable and writes nothing under HKCU (which a per-machine uninstall could not remove).
    expect(values).toEqual([
      { key: `Software\\Classes\\${scheme}`, name: '', value: 'URL:RosterDesk sign-in' },
      { key: `Software\\Classes\\${scheme}`, name: 'URL Protocol', value: '' },
      { key: 'DefaultIcon', name: '', value: `${exe},0` },
      { key: 'shell\\open\\command', name: '', value: `${exe} "%1"` },
    ])
    const nsis = readFileSync(join(ROOT, 'resources/installer.nsh'), 'utf8')
    expect(nsis).toContain(`!define ROSTERDESK_SCHEME "${scheme}"`)
    expect(nsis).toContain('"URL:RosterDesk sign-in"')
  })

  it('writes the marker the app reads to turn its own updates off, in the install folder', () => {
    const doc = parseXml(addRosterDeskComponents(renderedProject()))
    const [ini] = elements(doc, 'IniFile')
    expect(ini?.getAttribute('Directory')).toBe('APPLICATIONFOLDER')
    expect(ini?.getAttribute('Action')).toBe('createLine')
    const written = {
      file: ini?.getAttribute('Name'),
      section: ini?.getAttribute('Section'),
      key: ini?.getAttribute('Key'),
      value: ini?.getAttribute('Value'),
    }
    expect(written).toEqual(MSI_MARKER)
    // Its component's key path: a registry value, removed with it, which IT's detection rules may read too.
    const marker = elements(doc, 'Component').find((c) => c.getAttribute('Id') === 'RosterDeskMsiMarker')
    const [keyPath] = elements(marker!, 'RegistryValue')
    expect(keyPath?.getAttribute('KeyPath')).toBe('yes')
    expect(`${keyPath?.getAttribute('Root')}\\${keyPath?.getAttribute('Key')}`).toBe(
      'HKLM\\Software\\RosterDesk',
    )
    expect(keyPath?.getAttribute('Name')).toBe('InstalledByMsi')
    // Windows Installer removes the line at uninstall but not the file; the file itself goes too.
    const [removed] = elements(marker!, 'RemoveFile')
    expect({
      directory: removed?.getAttribute('Directory'),
      name: removed?.getAttribute('Name'),
      on: removed?.getAttribute('On'),
    }).toEqual({ directory: 'APPLICATIONFOLDER', name: MSI_MARKER.file, on: 'uninstall' })
    // What Windows Installer writes for that line (WritePrivateProfileString), read back as the app reads it.
    const file = `[${written.section}]\r\n${written.key}=${written.value}\r\n`
    const exe = `C:\\Program Files\\${config.productName}\\${config.productName}.exe`
    const reason = isMsiInstall({
      platform: 'win32',
      isPackaged: true,
      execPath: exe,
      readFile: (path) =>
        path === `C:\\Program Files\\${config.productName}\\${MSI_MARKER.file}`
          ? Buffer.from(file)
          : undefined,
    })
    expect(reason).toBe(MSI_UPDATES_OFF_REASON)
  })

  it('creates the policy folder under %ProgramData% with rights the app’s rule accepts, as the NSIS setup does', () => {
    const doc = parseXml(addRosterDeskComponents(renderedProject()))
    const common = elements(doc, 'Directory').find((d) => d.getAttribute('Id') === 'CommonAppDataFolder')
    const [folder] = elements(common!, 'Directory')
    expect(folder?.getAttribute('Name')).toBe('RosterDesk')
    const component = elements(doc, 'Component').find(
      (c) => c.getAttribute('Id') === 'RosterDeskPolicyFolder',
    )
    expect(component?.getAttribute('Directory')).toBe(folder?.getAttribute('Id'))
    const [permission] = elements(component!, 'PermissionEx')
    expect(permission?.parentNode?.nodeName).toBe('CreateFolder')
    expect(permission?.getAttribute('Sddl')).toBe(POLICY_FOLDER_SDDL)
    const folderPath = 'C:\\ProgramData\\RosterDesk'
    expect(windowsRefusal([{ path: folderPath, sddl: POLICY_FOLDER_SDDL }])).toBeUndefined()
    // A file IT copies in inherits the folder's entries.
    const inherited = 'O:BAG:SYD:AI(A;ID;FA;;;SY)(A;ID;FA;;;BA)(A;ID;0x1200a9;;;BU)'
    expect(windowsRefusal([{ path: `${folderPath}\\policy.json`, sddl: inherited }])).toBeUndefined()
    // NSIS grants the same with icacls: F is FA, RX is 0x1200a9, (OI)(CI) is OICI, inheritance removed (P).
    const nsis = readFileSync(join(ROOT, 'resources/installer.nsh'), 'utf8')
    expect(nsis).toContain(
      '/inheritance:r /grant:r *S-1-5-18:(OI)(CI)F *S-1-5-32-544:(OI)(CI)F *S-1-5-32-545:(OI)(CI)RX',
    )
    expect(nsis).toContain('/setowner *S-1-5-32-544')
  })

  it('adds its components once, and refuses a project whose component group it cannot find', () => {
    const once = addRosterDeskComponents(renderedProject())
    expect(addRosterDeskComponents(once)).toBe(once)
    expect(() => addRosterDeskComponents('<Wix><Product/></Wix>')).toThrow(/ProductComponents/)
  })
})

describe("the uninstallers and the user's data", () => {
  it("has the NSIS uninstaller's --delete-app-data remove the local caches too, and nothing without it", () => {
    const script = readFileSync(join(ROOT, 'resources/installer.nsh'), 'utf8')
    const uninstall = /!macro customUnInstall([\s\S]*?)!macroend/.exec(script)?.[1] ?? ''
    // The caches' folder is the local app data folder named like the roaming one (cacheRootFor, decision 046).
    expect(uninstall).toMatch(
      /\$\{GetOptions\} \$R0 "--delete-app-data" \$R1\s+\$\{ifNot\} \$\{Errors\}\s+SetShellVarContext current\s+RMDir \/r "\$LOCALAPPDATA\\\$\{PRODUCT_FILENAME\}"/,
    )
    expect(config.productName).toBe('RosterDesk')
  })
})
