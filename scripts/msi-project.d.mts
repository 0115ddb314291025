// Types for msi-project.mjs, which stays plain JavaScript so electron-builder loads the hook without a build.

/** The WiX components RosterDesk adds: the machine-wide sign-in scheme, the MSI marker and the policy folder. */
export declare const ROSTERDESK_MSI_COMPONENTS: string

/** The policy folder under CommonAppDataFolder (%ProgramData%\RosterDesk). */
export declare const ROSTERDESK_MSI_DIRECTORIES: string

/** The policy folder's rights as SDDL: administrators' only, read and execute for Users (decision 047). */
export declare const POLICY_FOLDER_SDDL: string

/** The project's text with RosterDesk's components added to the product's component group (idempotent). */
export declare function addRosterDeskComponents(project: string): string

/** The `msiProjectCreated` hook: rewrites the project file electron-builder rendered. */
export declare function msiProjectCreated(projectFile: string): Promise<void>
