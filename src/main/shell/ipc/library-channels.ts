import { ipcMain } from 'electron'

/**
 * Channels libraries open on their own. electron-store's constructor listens on `electron-store-get-data` (sync
 * IPC) so renderer-side stores can learn the data folder; RosterDesk's renderer has none, the answer would tell
 * any page the user's data path, and every channel main answers must be one of the contract's, sender-checked.
 * Call after the settings backend exists.
 */
const LIBRARY_CHANNELS = ['electron-store-get-data'] as const

export function closeLibraryChannels(): void {
  for (const channel of LIBRARY_CHANNELS) ipcMain.removeAllListeners(channel)
}
