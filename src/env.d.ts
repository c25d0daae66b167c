// Bindings and configuration of the service worker (wrangler.toml), typed once for all modules.
declare global {
  namespace Cloudflare {
    interface Env {
      DB: D1Database
      REQUESTS: DurableObjectNamespace<import('./request-aggregate/request-object').RequestObject>
      AVAILABILITY: DurableObjectNamespace<import('./watching/availability-object').AvailabilityObject>
      /** One per user with a paired device: its WebSocket and work items. */
      DEVICES: DurableObjectNamespace<import('./devices/device-object').DeviceObject>
      /** Hard caps on platform calls per venue and per user account (src/watching/limits.ts). */
      LIMITER: DurableObjectNamespace<import('./watching/limiter-object').LimiterObject>
      /** The one budget for platform calls from the cloud (src/budget/budget-object.ts). */
      BUDGET: DurableObjectNamespace<import('./budget/budget-object').BudgetObject>
      /** One per (venue, party size): the calendar pre-check (src/watching/calendar-object.ts). */
      CALENDARS: DurableObjectNamespace<import('./watching/calendar-object').CalendarObject>
      /** One per OAuth grant: its refreshes, revocations and end, one at a time (src/auth/grant-object.ts). */
      GRANTS: DurableObjectNamespace<import('./auth/grant-object').GrantObject>
      /** One per (address, client metadata): dynamic registrations, one at a time (src/auth/registration-object.ts). */
      REGISTRATIONS: DurableObjectNamespace<import('./auth/registration-object').RegistrationObject>
      /** One per venue: its booking horizon and the release rule learned from it (src/watching/horizon-object.ts). */
      HORIZONS: DurableObjectNamespace<import('./watching/horizon-object').HorizonObject>
      /** The benchmark's release contest only: "compressed:<epoch ms>:<real seconds per day>" (src/watching/release-clock.ts). */
      RELEASE_CLOCK?: string
      /** The MCP registry's namespace proof, `v=MCPv1; k=ed25519; p=<public key>` (src/http/registry-auth.ts). */
      MCP_REGISTRY_AUTH?: string
      /** Platform calls per second for the whole service (default 3; src/budget/budget.ts, docs/decisions/budget.md). */
      PLATFORM_CALLS_PER_SECOND?: string
      /** "off" turns the calendar pre-check off: every poll asks /4/find (src/watching/calendar-check.ts). */
      CALENDAR_PRECHECK?: string
      /** Seconds between finds of a date whatever the calendar says (default 600, at least 60). */
      CALENDAR_GUARD_SECONDS?: string
      /** Seconds between availability polls of a venue-day (never below the floor in src/watching/cadence.ts). */
      POLL_INTERVAL_SECONDS?: string
      /** "on" logs a line per Durable Object call and per availability poll (src/watching/poll-trace.ts); for `npm run bench`. */
      POLL_TRACE?: string
      ASSETS: Fetcher
      /** Origin used in links the service hands out (action_url, alerts). */
      PUBLIC_BASE_URL?: string
      /**
       * Browser origins (separated by spaces or commas) whose pages may call /mcp and /api/v1:
       * CORS preflights are answered for them (src/auth/browser-origins.ts).
       */
      ALLOWED_ORIGINS?: string
      /** Base URL of the reservation platform's API. */
      PLATFORM_BASE_URL: string
      /** The local sandbox platform (service binding); absent in production, where global fetch is used. */
      PLATFORM?: Fetcher
      /** The platform's API key (secret: .dev.vars locally, `wrangler secret put` in production). */
      PLATFORM_API_KEY: string
      /** A browser User-Agent for platform calls (default: a current desktop Chrome; see platform/user-agent.ts). */
      PLATFORM_USER_AGENT?: string
      /** The web origin sent as Origin/Referer: https://resy.com (default) or https://widgets.resy.com (platform/web-origin.ts). */
      PLATFORM_WEB_ORIGIN?: string
      /** AES-GCM key (base64, 32 bytes) for platform tokens at rest; a Worker secret. */
      PLATFORM_TOKEN_KEY: string
      /** HMAC key peppering password hashes (src/auth/password.ts); a Worker secret. */
      PASSWORD_PEPPER: string
      /** Bearer secret that shows the operators' figures on /health (src/http/health.ts); a Worker secret, optional. */
      OPERATOR_TOKEN?: string
      /** HMAC key signing the signed-out CSRF token (src/auth/csrf.ts); a Worker secret. */
      CSRF_SECRET: string
      /**
       * "on" only in the local configuration (wrangler.toml [vars], [env.bench]): webhooks may
       * use plain http to this machine, and PUBLIC_BASE_URL may be left unset. Never in production.
       */
      LOCAL_DEVELOPMENT?: string
      /** "cloudflare" (production) sends email through EMAIL; anything else keeps the D1 outbox (notifications/mailer.ts). */
      MAILER?: string
      /** Cloudflare Email Service (send_email binding); production only. */
      EMAIL?: SendEmail
      /** The From of alert emails, on a domain onboarded to Email Service, e.g. "Tablewatch <alerts@example.com>". */
      MAIL_FROM?: string
      /** "on" shows the /outbox page (emails that would have been sent); for local development. */
      SHOW_OUTBOX?: string
      /**
       * The VAPID private key for Web Push: a P-256 JWK as JSON; a Worker secret. Without
       * it, push is off (src/notifications/push/vapid.ts). The public key is derived from it.
       */
      VAPID_PRIVATE_KEY?: string
      /** The VAPID contact (mailto: or https:) push services see; default: MAIL_FROM's address, else the origin. */
      VAPID_SUBJECT?: string
      /** OAuth clients, grants and tokens (@cloudflare/workers-oauth-provider's storage). */
      OAUTH_KV: KVNamespace
      /** Access-token lifetime in seconds (60 to 900, default 900); end-to-end tests shorten it. */
      OAUTH_ACCESS_TOKEN_TTL?: string
    }
  }
}

export {}
