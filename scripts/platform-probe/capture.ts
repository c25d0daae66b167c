// The probe's view of each exchange: the client's transport builds and sends the request (so the
// headers are exactly the service's), and this fetcher keeps the raw answer text and headers the
// transport would otherwise only parse.
import type { Fetcher } from '../../src/platform/http'

export interface Captured {
  request: { method: string; url: URL; headers: Headers; body: string | null }
  response: { status: number; headers: Headers; text: string }
}

export interface CapturingFetcher extends Fetcher {
  /** The exchanges so far, oldest first. */
  readonly log: Captured[]
}

export function capturing(network: (request: Request) => Promise<Response>): CapturingFetcher {
  const log: Captured[] = []
  return {
    log,
    async fetch(request) {
      const body = request.body === null ? null : await request.clone().text()
      const res = await network(request)
      const text = await res.text()
      log.push({
        request: { method: request.method, url: new URL(request.url), headers: new Headers(request.headers), body },
        response: { status: res.status, headers: new Headers(res.headers), text },
      })
      // A fresh answer for the transport, the body already read.
      return new Response(text === '' && nullBodyStatus(res.status) ? null : text, { status: res.status, headers: res.headers })
    },
  }
}

const nullBodyStatus = (status: number) => status === 204 || status === 205 || status === 304

/** The parsed JSON of an answer, or undefined when it is not JSON. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
