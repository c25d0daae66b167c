// Turns an injected fault into what the caller experiences.
import type { Fault } from '../schemas'

const DEFAULT_HANG_MS = 15_000

const json = (status: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ status, message }), { status, headers: { 'Content-Type': 'application/json', ...headers } })

/** The answer for a fault that stops the call before it takes effect. */
export async function failBefore(fault: Fault): Promise<Response> {
  switch (fault.kind) {
    case '429':
      return json(429, 'Too Many Requests', { 'Retry-After': '1' })
    case '500':
      return json(500, 'Internal Server Error')
    case '503':
      return json(503, 'Service Unavailable')
    case '412':
      return json(412, 'Precondition Failed')
    case 'gone_410':
      return json(410, 'Slot no longer available')
    case '419':
      return json(419, 'Unauthorized')
    case 'format_415':
      return new Response(
        '<html><head><title>415 Unsupported Media Type</title></head><body><h1>Unsupported Media Type</h1></body></html>',
        {
          status: 415,
          headers: { 'Content-Type': 'text/html' },
        },
      )
    case 'format_400':
      return json(400, 'Bad Request: the request body could not be read')
    case 'session_500':
      return json(500, 'Authorization is invalid or expired. Please log in again.')
    case 'timeout':
      await scheduler.wait(fault.hangMs || DEFAULT_HANG_MS)
      return json(504, 'Gateway Timeout')
    case 'book_lost':
    case 'book_held':
    case 'stale':
    case 'odd_entry':
    case 'pass':
    case 'slow':
      throw new Error(`${fault.kind} does not stop the call`)
  }
}

/** The call took effect; the caller gets a 500, or waits `hangMs` and then gets a 504. */
export async function loseAnswer(fault: Fault): Promise<Response> {
  if (fault.hangMs > 0) {
    await scheduler.wait(fault.hangMs)
    return json(504, 'Gateway Timeout')
  }
  return json(500, 'Internal Server Error')
}
