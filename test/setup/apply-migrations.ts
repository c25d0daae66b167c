import { applyD1Migrations, env } from 'cloudflare:test'

// Idempotent: applies only the migrations this file's isolated storage has not seen.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
