import { applyD1Migrations, env } from 'cloudflare:test'

// Idempotent: applies only the migrations this runtime's D1 has not seen (all of them for the first
// file of a runtime; none for the workers project's later files, which share its runtime).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
