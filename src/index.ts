import { Hono } from 'hono'
export { RequestObject } from './requests/request-object'

const app = new Hono()
app.get('/health', (c) => c.json({ ok: true }))
export default app
