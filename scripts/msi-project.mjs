// electron-builder's `msiProjectCreated` hook (electron-builder.json): adds to the MSI's WiX project what its `msi`
// target does not write (decision 045). electron-builder calls it with the path of the project.wxs it rendered from
// node_modules/app-builder-lib/templates/msi/template.xml, before candle and light build the .msi.
//   - The sign-in scheme, machine-wide: the `msi` target ignores `protocols` (MsiTarget.ts writes only files,
//     shortcuts and file associations), so the keys resources/installer.nsh writes for NSIS are written here, under
//     HKLM, as registry values of a component, which Windows Installer removes at uninstall.
//   - The marker the app reads to know an MSI installed it (src/main/shell/window-and-startup/msi-install.ts), so it turns its
//     own updates off: an INI file in the install folder, created and removed by Windows Installer; its component's
//     key path is a registry value, HKLM\Software\RosterDesk InstalledByMsi = 1, which IT's tools may detect too.
//     Removing an INI line leaves its file, so a RemoveFile deletes it at uninstall.
//   - The machine policy's folder, %ProgramData%\RosterDesk, created with rights only administrators can write
//     (decision 047): a folder made there otherwise inherits "Users may create files", and the app refuses a policy
//     in it. PermissionEx's SDDL (MsiLockPermissionsEx, Windows Installer 5) replaces the inherited rights.
// test/unit/repo/installer-config.test.ts renders electron-builder's template, runs this on it and checks the
// result against the app's scheme and marker.
import { readFile, writeFile } from 'node:fs/promises'

/** Keep equal to DEFAULT_REDIRECT_URI's scheme and to installer.nsh's ROSTERDESK_SCHEME (the test checks both). */
const SCHEME = 'com.rosterdesk.app'
/** Keep equal to MSI_MARKER in src/main/shell/window-and-startup/msi-install.ts (the test checks it). */
const MARKER = { file: 'msi-install.ini', section: 'RosterDesk', key: 'InstalledBy', value: 'msi' }
const EXECUTABLE = 'RosterDesk.exe'
/** Fixed, so an upgrade keeps the same components (Windows Installer's component rules). */
const SCHEME_COMPONENT_GUID = '6F1D2B0C-5E39-4C8B-9A57-2A4E8D1C7B31'
const MARKER_COMPONENT_GUID = '0C4B7E62-8F1A-4D3E-B5C9-71E2A6D0F948'
const POLICY_FOLDER_COMPONENT_GUID = 'B3E0A9D4-27C6-4F15-8E3B-5D9A1C6F2E07'

/**
 * The policy folder's rights: owned by Administrators, protected from inheritance, full control for SYSTEM and
 * Administrators, read and execute for Users (this folder, its files and subfolders). The app's rule accepts it
 * (test/unit/repo/msi-package.test.ts); installer.nsh grants the same with icacls.
 */
export const POLICY_FOLDER_SDDL = 'O:BAG:SYD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;0x1200a9;;;BU)'

/** The policy folder under the known folder CommonAppDataFolder (%ProgramData%). */
export const ROSTERDESK_MSI_DIRECTORIES = `
    <!-- RosterDesk (scripts/msi-project.mjs): the machine policy's folder. -->
    <DirectoryRef Id="TARGETDIR">
      <Directory Id="CommonAppDataFolder">
        <Directory Id="ROSTERDESKPOLICYFOLDER" Name="RosterDesk"/>
      </Directory>
    </DirectoryRef>
`

const exe = `&quot;[APPLICATIONFOLDER]${EXECUTABLE}&quot;`

export const ROSTERDESK_MSI_COMPONENTS = `
      <!-- RosterDesk (scripts/msi-project.mjs): the sign-in scheme for every user of this computer. -->
      <Component Id="RosterDeskSignInScheme" Guid="${SCHEME_COMPONENT_GUID}">
        <RegistryKey Root="HKLM" Key="Software\\Classes\\${SCHEME}">
          <RegistryValue Type="string" Value="URL:RosterDesk sign-in" KeyPath="yes"/>
          <RegistryValue Type="string" Name="URL Protocol" Value=""/>
          <RegistryKey Key="DefaultIcon">
            <RegistryValue Type="string" Value="${exe},0"/>
          </RegistryKey>
          <RegistryKey Key="shell\\open\\command">
            <RegistryValue Type="string" Value="${exe} &quot;%1&quot;"/>
          </RegistryKey>
        </RegistryKey>
      </Component>
      <!-- RosterDesk (scripts/msi-project.mjs): the marker that turns the app's own updates off. -->
      <Component Id="RosterDeskMsiMarker" Guid="${MARKER_COMPONENT_GUID}">
        <RegistryValue Root="HKLM" Key="Software\\RosterDesk" Name="InstalledByMsi" Type="integer" Value="1" KeyPath="yes"/>
        <IniFile Id="RosterDeskMsiMarkerLine" Action="createLine" Directory="APPLICATIONFOLDER" Name="${MARKER.file}" Section="${MARKER.section}" Key="${MARKER.key}" Value="${MARKER.value}"/>
        <!-- Removing the INI line leaves the file: the file itself goes at uninstall, so nothing is left. -->
        <RemoveFile Id="RosterDeskMsiMarkerFile" Directory="APPLICATIONFOLDER" Name="${MARKER.file}" On="uninstall"/>
      </Component>
      <!-- RosterDesk (scripts/msi-project.mjs): the policy folder, writable by administrators only. -->
      <Component Id="RosterDeskPolicyFolder" Directory="ROSTERDESKPOLICYFOLDER" Guid="${POLICY_FOLDER_COMPONENT_GUID}" KeyPath="yes">
        <CreateFolder>
          <PermissionEx Sddl="${POLICY_FOLDER_SDDL}"/>
        </CreateFolder>
      </Component>
`

/** The project's text with RosterDesk's components added to the product's component group. */
export function addRosterDeskComponents(project) {
  const group = /(<ComponentGroup Id="ProductComponents"[^>]*>)([\s\S]*?)(<\/ComponentGroup>)/
  if (!group.test(project)) {
    throw new Error(
      'msi-project.mjs: no ProductComponents group in the WiX project; electron-builder changed it',
    )
  }
  if (project.includes('Id="RosterDeskSignInScheme"')) return project
  return project.replace(
    group,
    (_, open, body, close) =>
      `${ROSTERDESK_MSI_DIRECTORIES}\n    ${open}${body}${ROSTERDESK_MSI_COMPONENTS}    ${close}`,
  )
}

/** The hook electron-builder calls: it takes the export named after the hook (app-builder-lib's resolveFunction). */
export async function msiProjectCreated(projectFile) {
  const project = await readFile(projectFile, 'utf8')
  await writeFile(projectFile, addRosterDeskComponents(project))
}
