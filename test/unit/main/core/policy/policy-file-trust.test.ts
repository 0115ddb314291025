import { describe, expect, it } from 'vitest'
import {
  CHANGEABLE_BY_OTHERS,
  parseSddl,
  posixRefusal,
  windowsPathsToCheck,
  windowsRefusal,
  type PosixEntry,
} from '../../../../../src/main/core/policy/policy-file-trust'

/** A file system of stat answers by path; a path not listed is a root-owned 0755 folder. */
function tree(entries: Record<string, Partial<PosixEntry>>): (path: string) => PosixEntry {
  return (path) => ({ uid: 0, mode: 0o40755, isDirectory: true, ...entries[path] })
}
const FILE = '/etc/rosterdesk/policy.json'
const rootFile = { uid: 0, mode: 0o100644, isDirectory: false }
const ROOT_ONLY = new Set([0])

describe('the POSIX rule: root’s, not writable by group or others, up to /', () => {
  it('takes root’s 0644 file in root’s 0755 folders', () => {
    expect(posixRefusal(FILE, tree({ [FILE]: rootFile }), ROOT_ONLY)).toBeUndefined()
  })

  it('refuses a file its group or others can write, saying so', () => {
    const refused = posixRefusal(FILE, tree({ [FILE]: { ...rootFile, mode: 0o100664 } }), ROOT_ONLY)
    expect(refused?.reason).toBe(`${CHANGEABLE_BY_OTHERS} (the file is writable by its group)`)
    expect(refused?.detail).toBe(`${FILE}: mode 0664`)
    expect(
      posixRefusal(FILE, tree({ [FILE]: { ...rootFile, mode: 0o100666 } }), ROOT_ONLY)?.reason,
    ).toContain('writable by its group and others')
  })

  it('refuses a file another user owns, and takes the current user’s where allowed', () => {
    const mine = tree({ [FILE]: { ...rootFile, uid: 1000 } })
    expect(posixRefusal(FILE, mine, ROOT_ONLY)?.reason).toContain('the file belongs to user 1000')
    expect(posixRefusal(FILE, mine, new Set([0, 1000]))).toBeUndefined()
  })

  it('refuses a file under a folder others can write or another user owns, however high', () => {
    expect(posixRefusal(FILE, tree({ [FILE]: rootFile, '/etc': { mode: 0o40777 } }), ROOT_ONLY)?.reason).toBe(
      `${CHANGEABLE_BY_OTHERS} (its folder /etc is writable by its group and others)`,
    )
    expect(
      posixRefusal(FILE, tree({ [FILE]: rootFile, '/etc/rosterdesk': { uid: 1001 } }), ROOT_ONLY)?.reason,
    ).toContain('its folder /etc/rosterdesk belongs to user 1001')
  })

  it('passes a sticky folder of root’s that others may write (like /tmp), but not one of another user', () => {
    const inTmp = '/tmp/policy-x/policy.json'
    const sticky = { '/tmp': { mode: 0o41777 }, '/tmp/policy-x': { mode: 0o40700 }, [inTmp]: rootFile }
    expect(posixRefusal(inTmp, tree(sticky), ROOT_ONLY)).toBeUndefined()
    expect(
      posixRefusal(inTmp, tree({ ...sticky, '/tmp': { mode: 0o41777, uid: 1001 } }), ROOT_ONLY),
    ).toBeDefined()
    // Below the sticky folder, an entry someone else added is theirs: refused by its owner.
    expect(
      posixRefusal(inTmp, tree({ ...sticky, '/tmp/policy-x': { mode: 0o40700, uid: 1001 } }), ROOT_ONLY)
        ?.reason,
    ).toContain('belongs to user 1001')
  })

  it('refuses a folder named as the file', () => {
    expect(posixRefusal(FILE, tree({}), ROOT_ONLY)?.reason).toContain('it is a folder')
  })
})

// Descriptors as Get-Acl's .Sddl prints them on Windows 11 (accounts by SID or SDDL alias).
const USER_B = 'S-1-5-21-1004336348-1177238915-682003330-1001'
const PROGRAM_DATA_CHILD_INHERITED =
  '(A;OICIID;FA;;;SY)(A;OICIID;FA;;;BA)(A;OICIIOID;GA;;;CO)(A;OICIID;0x1200a9;;;BU)(A;CIID;DCLCRPCR;;;BU)'
/** The folder as the installer creates it: administrators' and protected from ProgramData's users' rights. */
const SAFE_FOLDER = 'O:BAG:SYD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;0x1200a9;;;BU)'
const SAFE_FILE = 'O:BAG:SYD:AI(A;ID;FA;;;SY)(A;ID;FA;;;BA)(A;ID;0x1200a9;;;BU)'
const FOLDER = 'C:\\ProgramData\\RosterDesk'
const WIN_FILE = `${FOLDER}\\policy.json`

describe('the Windows rule: administrators’, and nobody else may write, append or create', () => {
  it('reads owners and entries from SDDL, by alias or SID, hex or letters', () => {
    const parsed = parseSddl(`O:${USER_B}G:SYD:AI(A;CIID;DCLCRPCR;;;BU)(A;;0x1200a9;;;${USER_B})`)
    expect(parsed?.owner).toBe(USER_B)
    expect(parsed?.aces).toEqual([
      { type: 'A', inheritOnly: false, rights: 0x116, sid: 'S-1-5-32-545' },
      { type: 'A', inheritOnly: false, rights: 0x1200a9, sid: USER_B },
    ])
    expect(parseSddl('O:BAG:SYD:NO_ACCESS_CONTROL')?.nullDacl).toBe(true)
    expect(parseSddl('O:BA')).toBeUndefined()
  })

  it('takes the installer’s protected folder and the file in it', () => {
    expect(
      windowsRefusal([
        { path: WIN_FILE, sddl: SAFE_FILE },
        { path: FOLDER, sddl: SAFE_FOLDER },
      ]),
    ).toBeUndefined()
  })

  it('refuses a folder an administrator made without protecting it: Users may create files in it', () => {
    const refused = windowsRefusal([
      { path: WIN_FILE, sddl: SAFE_FILE },
      { path: FOLDER, sddl: `O:BAG:SYD:AI${PROGRAM_DATA_CHILD_INHERITED}` },
    ])
    expect(refused?.reason).toBe(`${CHANGEABLE_BY_OTHERS} (Users may change ${FOLDER})`)
    expect(refused?.detail).toBe(`${FOLDER}: allow 0x116 to S-1-5-32-545`)
  })

  it('refuses what another user planted: the folder and file are theirs', () => {
    const planted = `O:${USER_B}G:${USER_B}D:AI(A;ID;FA;;;${USER_B})${PROGRAM_DATA_CHILD_INHERITED}`
    expect(
      windowsRefusal([
        {
          path: WIN_FILE,
          sddl: `O:${USER_B}G:${USER_B}D:AI(A;ID;FA;;;${USER_B})(A;ID;FA;;;SY)(A;ID;FA;;;BA)`,
        },
        { path: FOLDER, sddl: planted },
      ])?.reason,
    ).toBe(`${CHANGEABLE_BY_OTHERS} (${WIN_FILE} belongs to ${USER_B})`)
  })

  it('refuses write, append, delete and permission rights of anyone else, and a null DACL', () => {
    for (const rights of ['FW', 'GA', 'GW', 'WD', 'WO', 'SD', '0x2', '0x4', 'DT', 'XX']) {
      expect(
        windowsRefusal([{ path: WIN_FILE, sddl: `O:SYD:(A;;FA;;;SY)(A;;${rights};;;AU)` }]),
        rights,
      ).toBeDefined()
    }
    expect(windowsRefusal([{ path: WIN_FILE, sddl: 'O:SYD:NO_ACCESS_CONTROL' }])?.reason).toContain(
      'everyone may change',
    )
  })

  it('passes read rights, deny entries and inherit-only entries of others, and Owner Rights of an administrator owner', () => {
    expect(
      windowsRefusal([
        { path: FOLDER, sddl: 'O:BAD:P(A;;FA;;;BA)(A;;FR;;;WD)(D;;FA;;;AN)(A;OICIIO;GA;;;CO)(A;;FA;;;OW)' },
      ]),
    ).toBeUndefined()
    expect(windowsRefusal([{ path: FOLDER, sddl: `O:${USER_B}D:P(A;;FA;;;OW)(A;;FA;;;BA)` }])).toBeDefined()
  })

  it('takes the current user as owner only when told to (a file a run from source names)', () => {
    const mine = [{ path: 'D:\\dev\\policy.json', sddl: `O:${USER_B}D:(A;;FA;;;${USER_B})(A;;FA;;;SY)` }]
    expect(windowsRefusal(mine)).toBeDefined()
    expect(windowsRefusal(mine, USER_B)).toBeUndefined()
  })

  it('checks the file and each folder up to, without, where it stops', () => {
    expect(windowsPathsToCheck(WIN_FILE, 'C:\\ProgramData')).toEqual([WIN_FILE, FOLDER])
    expect(windowsPathsToCheck('D:\\dev\\x\\policy.json', 'D:\\')).toEqual([
      'D:\\dev\\x\\policy.json',
      'D:\\dev\\x',
      'D:\\dev',
    ])
  })
})
