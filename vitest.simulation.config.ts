import { defineConfig } from 'vitest/config'
import { workerdPool } from './test/setup/workerd-pool'

// The booking-safety simulation and the crash-safety tests, in workerd against the sandbox
// platform. Their own project so that the service talks to a sandbox world of its own (the
// sandbox keeps one world per API host name): nothing else resets it or queues faults in it.
// Files run one at a time for the same reason. `npm test` runs the reduced simulation;
// `npm run simulate` (scripts/simulate.mjs) sets SIM_REQUESTS for the full one.
export default defineConfig(async () => ({
  plugins: [
    await workerdPool({
      PLATFORM_BASE_URL: 'https://simulation.sandbox.test',
      SIM_REQUESTS: process.env.SIM_REQUESTS ?? '',
      SIM_SEED: process.env.SEED ?? '',
    }),
  ],
  test: {
    name: 'simulation',
    include: ['test/simulation/**/*.test.ts'],
    setupFiles: ['./test/setup/apply-migrations.ts'],
    fileParallelism: false,
    // A guard against hangs, not a speed target (the bench measures speed): the reduced run takes
    // about 70 s alone and exceeded 120 s on a loaded 2-core machine.
    testTimeout: Number(process.env.SIM_TIMEOUT_MS ?? 600_000),
  },
}))
