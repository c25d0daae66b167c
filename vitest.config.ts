import { defineConfig } from 'vitest/config'

// `npm test` runs every suite: the pure suites (plain Node: decide, transitions, matching,
// cadence, fee rules), the platform probe's (plain Node, loopback only: a local server and the
// sandbox in a `wrangler dev` of its own), the workerd suites (unit + integration against real D1,
// Durable Objects and the sandbox platform worker) and the end-to-end suites that start
// `wrangler dev` and drive it from Node (browser, MCP client, conformance). The simulation
// project (the reduced booking-safety simulation and the crash-safety tests) and the watch project
// (the watcher and platform-connection tests) each have a sandbox world of their own.
export default defineConfig({
  test: {
    projects: [
      './vitest.pure.config.ts',
      './vitest.probe.config.ts',
      './vitest.workers.config.ts',
      './vitest.watch.config.ts',
      './vitest.simulation.config.ts',
      './vitest.e2e.config.ts',
      './vitest.e2e-tools.config.ts',
      './vitest.e2e-account.config.ts',
    ],
  },
})
