import type { EmployeeRow } from '../../src/shared/domain/rows'
import type { TokenFile } from '../../src/main/core/auth/token-file'
import type { ExportAbout, ExportColumn } from '../../src/main/core/export/export-types'
import { ABOUT } from './export-fixtures'

/**
 * The two versions the kill -9 child (kill-writer.ts) alternates between, one small and one large, so a torn
 * write would show as a file equal to neither.
 */
export interface KillWriterVersion {
  readonly text: string
  readonly token: TokenFile
  readonly settings: { readonly pageSize: number; readonly tenantId: string }
  readonly rows: EmployeeRow[]
}

export const KILL_WRITER_EXPORT_COLUMNS: ExportColumn[] = [
  { key: 'UUID', label: 'UUID', kind: 'text' },
  { key: 'lastName', label: 'Last name', kind: 'text' },
  { key: 'note', label: 'Note', kind: 'text' },
]

export const KILL_WRITER_ABOUT: ExportAbout = ABOUT

export function killWriterVersion(kind: string, which: number): KillWriterVersion {
  const size = which === 0 ? 40 : 4000
  const rows = Array.from({ length: size }, (_, i) => ({
    UUID: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    lastName: `Version${which}-${i}`,
    note: 'x'.repeat(which === 0 ? 5 : 120),
  }))
  return {
    text: `${JSON.stringify({ kind, which, filler: 'y'.repeat(which === 0 ? 10 : 400_000) })}\n`,
    token: {
      baseUrl: 'http://127.0.0.1:9',
      clientId: 'kill-test',
      redirectUri: 'http://127.0.0.1/oauth/callback',
      tenantId: '',
      accessToken: `access-${which}-${'a'.repeat(which === 0 ? 10 : 50_000)}`,
      refreshToken: `refresh-${which}`,
      expiresAt: null,
    },
    settings: {
      pageSize: which === 0 ? 111 : 222,
      tenantId: which === 0 ? 'tenant-a' : `tenant-${'b'.repeat(50)}`,
    },
    rows,
  }
}
