// Types for msi-project.mjs, which stays plain JavaScript so electron-builder loads the hook without a build.

/** The WiX components RosterDesk adds: the machine-wide sign-in scheme and the MSI marker. */
export declare const ROSTERDESK_MSI_COMPONENTS: string

/** The project's text with RosterDesk's components added to the product's component group (idempotent). */
export declare function addRosterDeskComponents(project: string): string

/** The `msiProjectCreated` hook: rewrites the project file electron-builder rendered. */
export declare function msiProjectCreated(projectFile: string): Promise<void>
