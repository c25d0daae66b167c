#!/usr/bin/env node
// `npm run platform:probe`: bundles the probe (scripts/platform-probe/*.ts, which imports the
// client's transport and schemas from src/platform) with esbuild in memory, as the device program
// does, and runs it. Needs Node.js 22. Read-only; see README.md "Probing the real platform".
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const here = dirname(fileURLToPath(import.meta.url))
const bundled = await build({
  entryPoints: [join(here, 'cli.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  write: false,
  logLevel: 'error',
})
const probe = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`)
await probe.runCommand(join(here, '..', '..'))
