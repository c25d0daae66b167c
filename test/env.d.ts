import type { D1Migration } from 'cloudflare:test'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Node's clock as the workers project's run began (vitest.workers.config.ts). */
    hostClockAtStart: number
  }
}

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[]
      /** Set when the run moves the clock ahead (test/setup/clock-ahead.ts); milliseconds. */
      TEST_CLOCK_AHEAD_MS?: string
    }
  }
}
