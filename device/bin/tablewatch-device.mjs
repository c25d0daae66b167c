#!/usr/bin/env node
// Runs the device program (device/src/cli.ts). It shares its platform client with the worker
// (src/platform), so it is bundled from the TypeScript sources with esbuild (a dependency of
// this repository) in memory on each start, then run. Needs Node.js 22.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const entry = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli.ts')
const bundled = await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  write: false,
  logLevel: 'error',
})
const code = bundled.outputFiles[0].text
await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)
