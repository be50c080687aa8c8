/**
 * Build of the three Electron targets into out/: main (the composition root and the engine
 * process entry as separate outputs), preload (one bundled CommonJS file, as a sandboxed preload
 * must be) and the renderer (Vue).
 */
import { resolve } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'electron-vite';

/** native or optional modules that must load from node_modules at run time, never bundled */
const NATIVE_EXTERNALS = [
  '@tensorflow/tfjs-node',
  '@tensorflow/tfjs-node-gpu',
  '@tensorflow/tfjs-backend-wasm',
  '@tensorflow/tfjs-backend-webgpu',
  'webgpu',
  'h5wasm',
  'h5wasm/node',
];

export default defineConfig({
  main: {
    build: {
      outDir: resolve('out/main'),
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          engineMain: resolve('src/main/engineProcess/engineMain.ts'),
          // NWB inspection runs in a worker thread; the data module finds it beside itself
          scanWorker: resolve('src/main/data/nwb/scanWorker.ts'),
          // the engine pool's workers: each a thread of the engine process with its own backend
          poolWorker: resolve('src/main/engineProcess/pool/poolWorker.ts'),
        },
        external: NATIVE_EXTERNALS,
      },
    },
  },
  preload: {
    build: {
      outDir: resolve('out/preload'),
      // sandboxed preloads cannot load other files: everything but electron goes in the bundle
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [vue()],
    build: {
      outDir: resolve('out/renderer'),
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
