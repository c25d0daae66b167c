// Bindings only the simulation project sets (vitest.simulation.config.ts).
declare global {
  namespace Cloudflare {
    interface Env {
      /** Requests in a full run (`npm run simulate`); empty for the reduced run of `npm test`. */
      SIM_REQUESTS: string
      /** A seed to replay (`SEED=…`); empty for a fresh one. */
      SIM_SEED: string
    }
  }
}

export {}
