import { z } from 'zod'
import type { UpdateRestartResult, UpdateState } from './update-state'

/**
 * The IPC contract's schemas for the updater's state (update-state.ts holds the types and words, zod-free, for the
 * renderer). Checked against those types at compile time below.
 */
const isoTime = z.string().max(40)
const version = z.string().min(1).max(100)

export const updateStateSchema = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('not-configured') }),
  z.strictObject({ status: z.literal('disabled'), reason: z.string().max(500) }),
  z.strictObject({ status: z.literal('idle') }),
  z.strictObject({ status: z.literal('checking') }),
  z.strictObject({ status: z.literal('up-to-date'), checkedAt: isoTime }),
  z.strictObject({ status: z.literal('downloading'), version, percent: z.number().min(0).max(100) }),
  z.strictObject({ status: z.literal('ready'), version }),
  z.strictObject({ status: z.literal('failed'), message: z.string().max(500), at: isoTime }),
])

export const updateRestartResultSchema = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('restarting') }),
  z.strictObject({ status: z.literal('busy'), reason: z.string().max(500) }),
  z.strictObject({ status: z.literal('not-ready') }),
])

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never
/** Compile-time proof that the schemas describe exactly the zod-free types. */
export const updateSchemasAgree: [
  Same<z.output<typeof updateStateSchema>, UpdateState>,
  Same<z.output<typeof updateRestartResultSchema>, UpdateRestartResult>,
] = [true, true]
