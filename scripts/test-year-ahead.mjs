// `npm run test:year-ahead`: the fast projects (pure, workers) with the clock a year ahead, so a
// test that only passes near today's date fails the day it is written, not the day it goes off.
// Node's clock moves with libfaketime (Debian's `faketime`); workerd, which cannot start under
// libfaketime, gets the same offset inside its isolates (test/setup/clock-ahead.ts).
//
//   npm run test:year-ahead                     pure and workers, 365 days ahead
//   npm run test:year-ahead -- --days 400       another offset
//   npm run test:year-ahead -- test/web/x.test.ts   any further vitest arguments
import { spawn, spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs')

const args = process.argv.slice(2)
const daysAt = args.indexOf('--days')
const days = daysAt >= 0 ? Number(args.splice(daysAt, 2)[1]) : 365
if (!Number.isInteger(days) || days <= 0) {
  console.error('--days takes a whole number of days ahead, e.g. --days 365')
  process.exit(2)
}
if (spawnSync('faketime', ['--help'], { stdio: 'ignore' }).error) {
  console.error('test:year-ahead needs libfaketime: apt-get install faketime (.ci/run installs it)')
  process.exit(2)
}

const env = {
  ...process.env,
  TABLEWATCH_CLOCK_AHEAD_MS: String(days * 86_400_000),
  // Only the wall clock moves: timers and timeouts keep counting real time.
  FAKETIME_DONT_FAKE_MONOTONIC: '1',
  WRANGLER_SEND_METRICS: process.env.WRANGLER_SEND_METRICS ?? 'false',
}
const shown = spawnSync('faketime', ['-f', `+${days}d`, process.execPath, '-p', 'new Date().toISOString()'], { env, encoding: 'utf8' })
console.log(`test:year-ahead: the clock reads ${shown.stdout.trim()} (${days} days ahead)`)
const projects = args.some((a) => a.startsWith('--project')) ? [] : ['--project', 'pure', '--project', 'workers']
const child = spawn('faketime', ['-f', `+${days}d`, process.execPath, vitest, 'run', ...projects, ...args], {
  cwd: root,
  env,
  stdio: 'inherit',
})
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
