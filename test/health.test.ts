import { env, SELF } from 'cloudflare:test'
import { expect, it } from 'vitest'

it('answers health and has migrated D1', async () => {
  const res = await SELF.fetch('http://localhost/health')
  expect(res.status).toBe(200)
  const row = await env.DB.prepare('select count(*) as n from users').first<{ n: number }>()
  expect(row?.n).toBe(0)
})
