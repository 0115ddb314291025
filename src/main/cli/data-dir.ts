import { homedir } from 'node:os'
import { posix, win32 } from 'node:path'

/**
 * The app's data folder, as the packaged app names it: `--data-dir`, else `ROSTERDESK_USER_DATA_DIR` (as the
 * app reads it), else the OS's per-user folder for RosterDesk.
 */
export function appDataDir(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  home: string = homedir(),
): string {
  const path = platform === 'win32' ? win32 : posix
  const chosen = flag ?? env['ROSTERDESK_USER_DATA_DIR']
  if (chosen !== undefined && chosen.trim() !== '') return path.resolve(chosen)
  if (platform === 'win32')
    return path.join(env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), 'RosterDesk')
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'RosterDesk')
  return path.join(env['XDG_CONFIG_HOME'] ?? path.join(home, '.config'), 'RosterDesk')
}

/**
 * The `--data-dir` a command line names (`--data-dir DIR` or `--data-dir=DIR`, the last one counting, as
 * parseArgs takes it), read before the command parses its own flags so the log can live in that folder.
 */
export function dataDirFlag(args: readonly string[]): string | undefined {
  let found: string | undefined
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === '--') break
    if (arg === '--data-dir') found = args[++i]
    else if (arg?.startsWith('--data-dir=')) found = arg.slice('--data-dir='.length)
  }
  return found
}
