import { enableCompileCache } from 'node:module'

/**
 * Keeps V8's compiled code for every module a command loads on disk (Node's module compile cache, in the
 * system's temporary folder, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so a scheduled
 * command after the first compiles nothing again: about 90 ms less CPU in each `export`'s start-up, measured, where
 * start-up is a quarter of an export of 100,000 rows. index.ts imports this module first, so it applies to all
 * that loads after it. Entries are keyed by each file's content: an update cannot run stale code.
 */
enableCompileCache()
