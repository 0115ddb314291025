import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import { cspMetaPlugin } from './scripts/csp-meta-plugin'

export default defineConfig({
  main: {
    build: {
      // electron-vite keeps only package.json's `dependencies` external, and electron-builder ships exactly those
      // in node_modules: better-sqlite3 (a native addon), electron-log and exceljs. Every other package, the
      // ESM-only electron-store included, is a devDependency and so is bundled into the CommonJS main bundle.
      rollupOptions: {
        // The core process (a utility process) and its core worker are entries of their own, so
        // out/main/core-process.js and core-worker.js sit beside index.js, where shell/core-process/core-process-channel.ts
        // and core-host/worker/worker-entry.ts look for them (neither uses Electron: they run under Node alike).
        input: {
          index: resolve(__dirname, 'src/main/shell/index.ts'),
          'core-process': resolve(__dirname, 'src/main/core-host/core-process.ts'),
          'core-worker': resolve(__dirname, 'src/main/core-host/worker/core-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed preload cannot `require` arbitrary files, so it must be one CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].js' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    // The production CSP <meta> is written into the built index.html only; dev gets its policy as a header.
    plugins: [react(), cspMetaPlugin()],
  },
})
