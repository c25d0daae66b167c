// Which deployment this is. Only the local configuration (wrangler.toml [vars] and [env.bench],
// LOCAL_DEVELOPMENT = "on") relaxes anything: plain-http webhooks to this machine, and running
// without PUBLIC_BASE_URL. Anything else is held to production's rules.

export function isLocalDevelopment(env: Pick<Cloudflare.Env, 'LOCAL_DEVELOPMENT'>): boolean {
  return env.LOCAL_DEVELOPMENT === 'on'
}

/** The origin local development uses when PUBLIC_BASE_URL is not set (npm start sets it). */
const LOCAL_ORIGIN = 'http://localhost:8787'

/**
 * Where the service is, for every link it mails or publishes (sign-up and reset mails, action
 * URLs, the OpenAPI document's server) and the OAuth issuer: PUBLIC_BASE_URL, without a trailing
 * slash. Never a request's Host header, which the caller chooses: a reset asked for with
 * `Host: evil.example` must not mail a link to evil.example. Outside local development the
 * service refuses to run without it (missingConfiguration).
 */
export function publicBaseUrl(env: Pick<Cloudflare.Env, 'PUBLIC_BASE_URL'>): string {
  return (env.PUBLIC_BASE_URL || LOCAL_ORIGIN).replace(/\/$/, '')
}

const REQUIRED_SECRETS = ['PASSWORD_PEPPER', 'CSRF_SECRET'] as const

/**
 * The names of the settings the service cannot run without that `env` lacks: its public origin
 * (links, the OAuth issuer and audiences come from it, never from a request's Host header) unless
 * it runs locally, and its HMAC secrets.
 */
export function missingConfiguration(env: Cloudflare.Env): string[] {
  const missing: string[] = []
  if (!env.PUBLIC_BASE_URL && !isLocalDevelopment(env)) missing.push('PUBLIC_BASE_URL')
  for (const name of REQUIRED_SECRETS) if (!env[name]) missing.push(name)
  return missing
}

/**
 * The sandbox's demo controls ("Open a matching table now"): only when the service runs
 * locally AND with the sandbox platform behind the PLATFORM service binding. Production has
 * neither (wrangler.toml [env.production]; `npm run deploy:check` refuses a config with either).
 */
export function sandboxDemoEnabled(env: Pick<Cloudflare.Env, 'LOCAL_DEVELOPMENT' | 'PLATFORM'>): boolean {
  return isLocalDevelopment(env) && env.PLATFORM !== undefined
}
