// Test-only binding (vitest.workers.config.ts): the sandbox twin with its control API off.
declare global {
  namespace Cloudflare {
    interface Env {
      SANDBOX_LOCKED: Fetcher
    }
  }
}

export {}
