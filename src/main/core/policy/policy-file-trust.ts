import { posix, win32 } from 'node:path'

/**
 * Who may have written a policy file: a policy is taken only from a source only administrators can write (issue
 * 31), so another user of the same PC cannot plant one that every clerk then obeys. `administrators` for the
 * machine's own file; `administrators-or-me` for a file a run from source names (ROSTERDESK_POLICY_FILE), whose
 * owner may also be the user running RosterDesk.
 */
export type PolicyFileTrust = 'administrators' | 'administrators-or-me'

/** A policy file as read after its check. */
export type PolicyFileRead =
  | { readonly kind: 'missing' }
  /** `reason` says who else can change it, for the clerk and IT; `detail` the figures, for the log. */
  | { readonly kind: 'refused'; readonly reason: string; readonly detail: string }
  | { readonly kind: 'read'; readonly text: string }

/** The start of every refusal, so IT reads the same words whatever the OS. */
export const CHANGEABLE_BY_OTHERS = 'it can be changed by users who are not administrators'

/** What `stat` tells of one path, the fields the POSIX rule reads. */
export interface PosixEntry {
  readonly uid: number
  readonly mode: number
  readonly isDirectory: boolean
}

const GROUP_OR_OTHERS_WRITE = 0o022
const STICKY = 0o1000

/**
 * The POSIX rule (macOS, Linux), over the real path of the file (symbolic links resolved first, so a link cannot
 * lead the check past its target's folders): the file and every folder above it up to `/` owned by root (or, for
 * `administrators-or-me`, the current user) and not writable by group or others. One reading of "folders above":
 * a folder others may write is accepted when it is sticky and root's (like `/tmp`): others can add entries there
 * but cannot rename or remove one they do not own, and whatever they could add on the way down is caught by the
 * next entry's owner. Returns the refusal, or undefined when the file may be read.
 */
export function posixRefusal(
  realPath: string,
  entryOf: (path: string) => PosixEntry,
  allowedOwners: ReadonlySet<number>,
): { reason: string; detail: string } | undefined {
  const refusal = (what: string, detail: string) => ({ reason: `${CHANGEABLE_BY_OTHERS} (${what})`, detail })
  const file = entryOf(realPath)
  if (file.isDirectory) return refusal('it is a folder', `${realPath} is a directory`)
  if (!allowedOwners.has(file.uid))
    return refusal(`the file belongs to user ${file.uid}`, `${realPath}: uid ${file.uid}`)
  if ((file.mode & GROUP_OR_OTHERS_WRITE) !== 0)
    return refusal(`the file is writable by ${whoWrites(file.mode)}`, `${realPath}: mode ${octal(file.mode)}`)
  for (let folder = posix.dirname(realPath); ; folder = posix.dirname(folder)) {
    const entry = entryOf(folder)
    const sticky = (entry.mode & STICKY) !== 0 && entry.uid === 0
    if (!allowedOwners.has(entry.uid) && !sticky)
      return refusal(`its folder ${folder} belongs to user ${entry.uid}`, `${folder}: uid ${entry.uid}`)
    if ((entry.mode & GROUP_OR_OTHERS_WRITE) !== 0 && !sticky)
      return refusal(
        `its folder ${folder} is writable by ${whoWrites(entry.mode)}`,
        `${folder}: mode ${octal(entry.mode)}`,
      )
    if (folder === posix.dirname(folder)) return undefined
  }
}

function whoWrites(mode: number): string {
  const group = (mode & 0o020) !== 0
  const others = (mode & 0o002) !== 0
  return group && others ? 'its group and others' : group ? 'its group' : 'others'
}

function octal(mode: number): string {
  return `0${(mode & 0o7777).toString(8)}`
}

// ---- Windows ------------------------------------------------------------------------------------------------

/** SIDs that are administrators by definition: LocalSystem, BUILTIN\Administrators, TrustedInstaller. */
const ADMINISTRATOR_SIDS = new Set([
  'S-1-5-18',
  'S-1-5-32-544',
  'S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464',
])

/** The SDDL aliases a file's descriptor uses for well-known SIDs (sddl.h), those RosterDesk names or trusts. */
const SDDL_ALIASES = new Map<string, string>([
  ['SY', 'S-1-5-18'],
  ['BA', 'S-1-5-32-544'],
  ['BU', 'S-1-5-32-545'],
  ['AU', 'S-1-5-11'],
  ['WD', 'S-1-1-0'],
  ['IU', 'S-1-5-4'],
  ['CO', 'S-1-3-0'],
  ['OW', 'S-1-3-4'],
  ['AN', 'S-1-5-7'],
  ['BG', 'S-1-5-32-546'],
  ['PU', 'S-1-5-32-547'],
  ['NS', 'S-1-5-20'],
  ['LS', 'S-1-5-19'],
])

/** How IT knows the SIDs a refusal names. */
const SID_NAMES = new Map<string, string>([
  ['S-1-5-32-545', 'Users'],
  ['S-1-5-11', 'Authenticated Users'],
  ['S-1-1-0', 'Everyone'],
  ['S-1-5-4', 'Interactive users'],
  ['S-1-3-0', 'Creator Owner'],
  ['S-1-3-4', 'Owner Rights'],
  ['S-1-5-7', 'Anonymous'],
  ['S-1-5-32-546', 'Guests'],
  ['S-1-5-32-547', 'Power Users'],
])

/** SDDL's two-letter access rights (sddl.h) as the file-system bits they stand for. */
const SDDL_RIGHTS = new Map<string, number>([
  ['GA', 0x10000000],
  ['GR', 0x80000000],
  ['GW', 0x40000000],
  ['GX', 0x20000000],
  ['RC', 0x20000],
  ['SD', 0x10000],
  ['WD', 0x40000],
  ['WO', 0x80000],
  ['CC', 0x1],
  ['DC', 0x2],
  ['LC', 0x4],
  ['SW', 0x8],
  ['RP', 0x10],
  ['WP', 0x20],
  ['DT', 0x40],
  ['LO', 0x80],
  ['CR', 0x100],
  ['FA', 0x1f01ff],
  ['FR', 0x120089],
  ['FW', 0x120116],
  ['FX', 0x1200a0],
])

/**
 * The rights that let a holder change what the file says or which file is read: write data / add a file (0x2),
 * append / add a folder (0x4), delete a child (0x40), delete (0x10000), change the permissions or the owner
 * (0x40000, 0x80000), and the generic all and write rights.
 */
const WRITE_RIGHTS = 0x2 | 0x4 | 0x40 | 0x10000 | 0x40000 | 0x80000 | 0x10000000 | 0x40000000

/** One access-control entry of a descriptor's DACL, as the rule reads it. */
interface Ace {
  readonly type: string
  readonly inheritOnly: boolean
  readonly rights: number
  readonly sid: string
}

function sidOf(text: string): string {
  return SDDL_ALIASES.get(text) ?? text
}

function rightsOf(text: string): number {
  if (/^0x[0-9a-f]+$/i.test(text)) return Number.parseInt(text, 16)
  let rights = 0
  for (let i = 0; i < text.length; i += 2) {
    const bits = SDDL_RIGHTS.get(text.slice(i, i + 2))
    // A right this table does not know counts as every right: never trust what cannot be read.
    rights |= bits ?? 0xffffffff
  }
  return rights
}

/**
 * A security descriptor's SDDL (Get-Acl's `.Sddl`) read into its owner and DACL, or undefined when it has no
 * DACL part or it cannot be parsed; `nullDacl` when the DACL grants everyone everything (`D:NO_ACCESS_CONTROL`).
 */
export function parseSddl(
  sddl: string,
): { owner: string | undefined; nullDacl: boolean; aces: Ace[] } | undefined {
  const owner = /(?:^|[^(])O:((?:S-[0-9-]+)|[A-Z]{2})/.exec(sddl)?.[1]
  const dacl = /D:([^(]*)((?:\([^)]*\))*)/.exec(sddl)
  if (dacl === null) return undefined
  const aces: Ace[] = []
  for (const match of (dacl[2] ?? '').matchAll(/\(([^)]*)\)/g)) {
    const [type = '', flags = '', rights = '', , , account = ''] = (match[1] ?? '').split(';')
    aces.push({ type, inheritOnly: flags.includes('IO'), rights: rightsOf(rights), sid: sidOf(account) })
  }
  return {
    owner: owner === undefined ? undefined : sidOf(owner),
    nullDacl: (dacl[1] ?? '').includes('NO_ACCESS_CONTROL'),
    aces,
  }
}

/** One path's descriptor as the Windows check reports it. */
export interface WindowsAclEntry {
  readonly path: string
  /** Absent when the path does not exist. */
  readonly sddl?: string
}

/**
 * The Windows rule: each path (the file, then each folder above it that is checked) owned by an administrator
 * (LocalSystem, Administrators, TrustedInstaller; or `me`, the current user's SID, when given) and no allow entry
 * that applies to the object itself (inherit-only entries do not) granting a write, append, create, delete or
 * permission right to anyone else. "Owner Rights" counts as the owner. Returns the refusal, or undefined.
 */
export function windowsRefusal(
  entries: readonly WindowsAclEntry[],
  me?: string,
): { reason: string; detail: string } | undefined {
  const trusted = (sid: string | undefined): boolean =>
    sid !== undefined && (ADMINISTRATOR_SIDS.has(sid) || sid === me)
  for (const entry of entries) {
    const refusal = (what: string, detail: string) => ({
      reason: `${CHANGEABLE_BY_OTHERS} (${what})`,
      detail: `${entry.path}: ${detail}`,
    })
    const descriptor = entry.sddl === undefined ? undefined : parseSddl(entry.sddl)
    if (descriptor === undefined)
      return refusal(`the permissions of ${entry.path} cannot be read`, entry.sddl ?? 'no descriptor')
    if (!trusted(descriptor.owner))
      return refusal(
        `${entry.path} belongs to ${nameOf(descriptor.owner)}`,
        `owner ${descriptor.owner ?? '?'}`,
      )
    if (descriptor.nullDacl) return refusal(`everyone may change ${entry.path}`, 'no access control list')
    for (const ace of descriptor.aces) {
      if (ace.type !== 'A' || ace.inheritOnly || (ace.rights & WRITE_RIGHTS) === 0) continue
      const holder = ace.sid === 'S-1-3-4' ? descriptor.owner : ace.sid
      if (trusted(holder)) continue
      return refusal(
        `${nameOf(ace.sid)} may change ${entry.path}`,
        `allow 0x${(ace.rights >>> 0).toString(16)} to ${ace.sid}`,
      )
    }
  }
  return undefined
}

function nameOf(sid: string | undefined): string {
  if (sid === undefined) return 'an unknown owner'
  return SID_NAMES.get(sid) ?? sid
}

/**
 * The paths the Windows check reads for `file`: the file and each folder above it, up to and without `stopAt`
 * (%ProgramData% for the machine's file, which lets users create folders by design; the drive's root for a file a
 * run from source names).
 */
export function windowsPathsToCheck(file: string, stopAt: string): string[] {
  const stop = win32.resolve(stopAt).toLowerCase()
  const paths: string[] = []
  for (let path = win32.resolve(file); ; path = win32.dirname(path)) {
    if (path.toLowerCase() === stop || win32.dirname(path) === path) return paths
    paths.push(path)
  }
}
