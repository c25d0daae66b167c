// The device program's endpoints, JSON and bearer only, no session or CSRF: pairing
// (a user code from Settings for a device credential) and the WebSocket the device keeps open.
import { Hono } from 'hono'
import { z } from 'zod'
import { connectDevice, pairDevice } from '../devices/device-settings'
import { AppError } from '../errors'
import { addressKey } from '../lib/address-key'
import { withoutControlCharacters } from '../lib/text'
import { depsOf } from '../runtime/deps'

const PairBody = z.strictObject({
  code: z.string().min(1).max(20),
  // Cleaned as token names are: no control characters or bidi overrides in what Settings shows.
  name: z.string().overwrite(withoutControlCharacters).trim().min(1).max(80),
})

const bearer = (header: string | undefined) => /^Bearer (\S+)$/.exec(header ?? '')?.[1] ?? null

export const deviceApi = new Hono<{ Bindings: Cloudflare.Env }>()
  .post('/pair', async (c) => {
    const parsed = PairBody.safeParse(await c.req.json().catch(() => null))
    if (!parsed.success) throw new AppError('invalid_request', 'Send the pairing code from Settings as `code` and a device `name`.')
    const address = addressKey(c.req.header('CF-Connecting-IP'))
    const paired = await pairDevice(depsOf(c.env), { userCode: parsed.data.code, deviceName: parsed.data.name, address })
    return c.json({ device_id: paired.deviceId, credential: paired.credential }, 201)
  })
  .get('/connect', async (c) => {
    const credential = bearer(c.req.header('Authorization'))
    if (!credential) throw new AppError('unauthorized', 'Send the device credential as a bearer token.')
    return connectDevice(depsOf(c.env), credential, c.req.raw)
  })
