import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  aclScript,
  readPosixPolicyFile,
  readWindowsPolicyFile,
} from '../../../../../src/main/core/policy/policy-file-read'
import { CHANGEABLE_BY_OTHERS } from '../../../../../src/main/core/policy/policy-file-trust'
import { system32Tool } from '../../../../../src/main/core/policy/windows-tools'

const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-policy-read-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A file in a fresh folder of this test's, both with the modes given (umask set aside by chmod). */
function placed(name: string, fileMode: number, folderMode = 0o755): string {
  const folder = join(dir, name)
  mkdirSync(folder)
  const file = join(folder, 'policy.json')
  writeFileSync(file, '{"exports":{"maxRows":5}}')
  chmodSync(file, fileMode)
  chmodSync(folder, folderMode)
  return file
}

describe.skipIf(process.platform === 'win32')('a policy file on macOS and Linux', () => {
  it('is read when only its owner can write it, and refused when its group or others can', async () => {
    expect(await readPosixPolicyFile(placed('ok', 0o644), 'administrators-or-me')).toEqual({
      kind: 'read',
      text: '{"exports":{"maxRows":5}}',
    })
    const refused = await readPosixPolicyFile(placed('group', 0o664), 'administrators-or-me')
    expect(refused).toMatchObject({
      kind: 'refused',
      reason: `${CHANGEABLE_BY_OTHERS} (the file is writable by its group)`,
    })
  })

  it('is refused in a folder others can write, and through a link into one', async () => {
    const open = placed('open-folder', 0o644, 0o777)
    expect(await readPosixPolicyFile(open, 'administrators-or-me')).toMatchObject({ kind: 'refused' })
    const link = join(dir, 'link.json')
    symlinkSync(open, link)
    const viaLink = await readPosixPolicyFile(link, 'administrators-or-me')
    expect(viaLink).toMatchObject({ kind: 'refused' })
    if (viaLink.kind === 'refused') expect(viaLink.reason).toContain('open-folder is writable by')
  })

  it('says a missing file is missing', async () => {
    expect(await readPosixPolicyFile(join(dir, 'nowhere', 'policy.json'), 'administrators')).toEqual({
      kind: 'missing',
    })
  })

  it('refuses a file another user owns as the machine’s (root’s only), and as a named file', async () => {
    const file = placed('theirs', 0o644)
    // Run as root (as here), the file is given away; run as a user, it is that user's, not root's.
    if (process.getuid?.() === 0) chownSync(file, 4321, 4321)
    for (const trust of ['administrators', 'administrators-or-me'] as const) {
      if (trust === 'administrators-or-me' && process.getuid?.() !== 0) continue
      expect(await readPosixPolicyFile(file, trust)).toMatchObject({
        kind: 'refused',
        reason: expect.stringMatching(/the file belongs to user \d+/),
      })
    }
  })
})

describe('a policy file on Windows, from a recorded permission report', () => {
  const SAFE_FOLDER = 'O:BAG:SYD:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;0x1200a9;;;BU)'
  const UNSAFE_FOLDER =
    'O:BAG:SYD:AI(A;OICIID;FA;;;SY)(A;OICIID;FA;;;BA)(A;OICIIOID;GA;;;CO)(A;OICIID;0x1200a9;;;BU)(A;CIID;DCLCRPCR;;;BU)'
  const SAFE_FILE = 'O:BAG:SYD:AI(A;ID;FA;;;SY)(A;ID;FA;;;BA)(A;ID;0x1200a9;;;BU)'
  const report = (folder: string | undefined, file: string | undefined): string =>
    JSON.stringify({
      programData: 'E:\\ProgramData',
      user: 'S-1-5-21-1-2-3-1001',
      entries: [
        { path: 'E:\\ProgramData\\RosterDesk\\policy.json', ...(file === undefined ? {} : { sddl: file }) },
        { path: 'E:\\ProgramData\\RosterDesk', ...(folder === undefined ? {} : { sddl: folder }) },
      ],
    })

  it('finds the machine’s file under the known folder and refuses it in a folder users can write to', async () => {
    const scripts: string[] = []
    const answer = await readWindowsPolicyFile({ machine: true }, {}, async (script) => {
      scripts.push(script)
      return `\uFEFF${report(UNSAFE_FOLDER, SAFE_FILE)}\r\n`
    })
    expect(scripts[0]).toContain("[Environment]::GetFolderPath('CommonApplicationData')")
    expect(answer.path).toBe('E:\\ProgramData\\RosterDesk\\policy.json')
    expect(answer.read).toEqual({
      kind: 'refused',
      reason: `${CHANGEABLE_BY_OTHERS} (Users may change E:\\ProgramData\\RosterDesk)`,
      detail: 'E:\\ProgramData\\RosterDesk: allow 0x116 to S-1-5-32-545',
    })
  })

  it('says missing when the file is not there, and refuses a report short of a folder', async () => {
    expect(
      (await readWindowsPolicyFile({ machine: true }, {}, async () => report(SAFE_FOLDER, undefined))).read,
    ).toEqual({ kind: 'missing' })
    await expect(
      readWindowsPolicyFile({ machine: true }, {}, async () => report(undefined, SAFE_FILE)),
    ).rejects.toThrow('the permission report has nothing for E:\\ProgramData\\RosterDesk')
  })

  it('quotes a named path for PowerShell and checks every folder up to its drive', () => {
    const script = aclScript(["D:\\O'Brien\\policy.json", "D:\\O'Brien"])
    expect(script).toContain("$paths = @('D:\\O''Brien\\policy.json', 'D:\\O''Brien')")
    expect(script).toContain('(Get-Acl -LiteralPath $p).Sddl')
  })

  it('runs Windows’ own tools by their full path under %SystemRoot%', () => {
    expect(system32Tool({ SystemRoot: 'C:\\WINDOWS' }, 'reg.exe')).toBe('C:\\WINDOWS\\System32\\reg.exe')
    expect(system32Tool({}, 'WindowsPowerShell\\v1.0\\powershell.exe')).toBe(
      'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    )
  })
})
