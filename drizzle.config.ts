import { defineConfig } from 'drizzle-kit'

// Migrations are generated from src/db/schema.ts with `npm run db:generate` and applied
// by wrangler (`npm start`) and by the test setup file.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './migrations',
})
