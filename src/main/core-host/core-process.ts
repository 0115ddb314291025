import { serveCoreProcess } from './process/serve-core-process'
import { utilityNet } from './process/electron-net-fetch'
import { DEMO_REDIRECT_URI } from '../core/settings/settings-defaults'
import { startSandbox } from '../sandbox'

// The core process's entry (Electron's utilityProcess; built to out/main/core-process.js beside index.js): the
// app core, its queries, sync and exports, in a process of its own so the main process stays small and free.
// A utility process has none of main's APIs; of Electron's it uses `net` alone, for every request to the service
// (lint allows electron in core-host/process only, never on the core worker).
serveCoreProcess({
  startDemo: async () => {
    const demo = await startSandbox({ port: 0, redirectUris: [DEMO_REDIRECT_URI] })
    return { environment: { baseUrl: demo.baseUrl, ...demo.credentials }, close: () => demo.close() }
  },
  ...utilityNet(),
})
