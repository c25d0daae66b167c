// The JSON the push scripts send (public/push.js, public/sw.js): a subscription or a renewal,
// read once with the same checks, refused in the contract's error format.
import type { Context } from 'hono'
import { AppError } from '../../errors'

/** Two subscriptions are under a kilobyte; anything far larger is not what the scripts send. */
const MAX_PUSH_JSON_BYTES = 8_192

/** The parsed body, or the refusal to answer with. */
export async function pushJsonOf(c: Context, what: string): Promise<{ input: unknown } | { refusal: Response }> {
  if (!(c.req.header('content-type') ?? '').startsWith('application/json')) {
    return { refusal: new AppError('unsupported_media_type', `Send the ${what} as application/json.`).toResponse() }
  }
  const text = await c.req.text()
  if (text.length > MAX_PUSH_JSON_BYTES) {
    return { refusal: new AppError('payload_too_large', `That is too large for a push ${what}.`).toResponse() }
  }
  try {
    return { input: JSON.parse(text) }
  } catch {
    return { refusal: new AppError('invalid_request', 'The body is not JSON.').toResponse() }
  }
}
