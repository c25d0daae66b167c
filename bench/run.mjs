// `npm run bench`: bundles the benchmark (bench/src, TypeScript) for Node with esbuild and runs
// it. See bench/src/main.ts for what it measures; its settings are environment variables
// (bench/src/settings.ts), which `npm run bench -- --help` prints without starting a run.

import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outfile = join(root, '.build', 'bench.mjs')
await build({
  entryPoints: [join(root, 'bench', 'src', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  logLevel: 'warning',
  // import.meta.dirname must point into bench/src, where the sources are.
  define: { 'import.meta.dirname': JSON.stringify(join(root, 'bench', 'src')) },
})
const child = spawn(process.execPath, [outfile, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
