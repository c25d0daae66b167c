import { defineConfig } from 'vitest/config'
import { workerdPool } from './test/setup/workerd-pool'

// The watcher and platform-connection tests, in workerd against sandbox worlds of their own, and
// the budget object's: each file gets a runtime of its own (fresh storage, no request of another
// file polling in the background, the one budget object to itself).
// They go through the service (API calls, request alarms), whose platform client reaches the
// world named by PLATFORM_BASE_URL's host, so the other suites' world (api.resy.com in the
// workers project) is never reset or faulted by them, nor theirs by anyone else. Files run one
// at a time, and each test resets the world at set-up (test/watch/world.ts).
export default defineConfig(async () => ({
  plugins: [await workerdPool({ PLATFORM_BASE_URL: 'https://watch.sandbox.test' })],
  test: {
    name: 'watch',
    include: ['test/watch/**/*.test.ts', 'test/connection/**/*.test.ts'],
    setupFiles: ['./test/setup/apply-migrations.ts'],
    fileParallelism: false,
    // Timeouts guard against hangs, not speed (speed lives in npm run bench): a 2-core machine
    // running the projects side by side can take several seconds for one D1 + DO round trip.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
}))
