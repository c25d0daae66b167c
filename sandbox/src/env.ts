// Bindings of the sandbox worker (sandbox/wrangler.toml; the test config mirrors them).
import type { SandboxPlatform } from './object'

export interface SandboxEnv {
  WORLDS: DurableObjectNamespace<SandboxPlatform>
  /** The API key callers must present, as the real platform requires one. */
  PLATFORM_API_KEY: string
  /** "on" enables /__sandbox/… (tests, demo); anything else answers 404 there. */
  SANDBOX_CONTROL?: string
  /** "on" makes each world drop and release slots every 30–60 s. */
  SANDBOX_DEMO?: string
}
