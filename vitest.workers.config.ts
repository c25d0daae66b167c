import { defineConfig } from 'vitest/config'
import { workerdPool } from './test/setup/workerd-pool'

// The suites that need workerd: real D1 (migrated in test/setup/apply-migrations.ts), real
// Durable Objects and the sandbox platform worker, with the real wrangler config. Every test file
// in a folder no other project claims runs here (docs/decisions/tests.md). The files share one
// workerd (isolate: false: the runtime, the sandbox and the modules start once, not once per
// file) and run one at a time in it. Storage is shared too: each test builds its own users,
// tokens and requests with random ids; a test that calls the sandbox itself gets a world of its
// own (test/platform/world.ts), and the service's calls go to one world (api.resy.com), as they
// always did for the tests of one file. A test that needs the runtime to itself belongs in test/watch/.
export default defineConfig(async () => ({
  plugins: [await workerdPool()],
  test: {
    name: 'workers',
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/pure/**',
      'test/probe/**',
      'test/e2e/**',
      'test/simulation/**',
      'test/watch/**',
      'test/connection/**',
      'node_modules/**',
    ],
    setupFiles: ['./test/setup/clock-ahead-install.ts', './test/setup/apply-migrations.ts'],
    // What Node's clock read as the run began: test/platform/one-clock.test.ts holds workerd's to it.
    provide: { hostClockAtStart: Date.now() },
    isolate: false,
    fileParallelism: false,
    // Timeouts guard against hangs, not speed (speed lives in npm run bench): a 2-core machine
    // running the projects side by side can take several seconds for one D1 + DO round trip.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
}))
