import { z } from 'zod'

/** Help → Save diagnostics… (issue 35): what was written, for the clerk's confirmation. */
export const diagnosticsResultSchema = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('cancelled') }),
  z.strictObject({
    status: z.literal('written'),
    /** The file's name (not its folder: "Show in folder" reveals it). */
    fileName: z.string(),
    /** How many values the second redaction replaced (README.txt lists them by kind). */
    replaced: z.int().min(0),
  }),
])
export type DiagnosticsResult = z.infer<typeof diagnosticsResultSchema>
