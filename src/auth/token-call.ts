// A token-endpoint request and its answer as plain data, so they can cross to a grant's Durable
// Object (src/auth/grant-object.ts) and back over RPC. Token requests and answers are small
// forms and JSON documents, read whole anyway.

interface Header {
  name: string
  value: string
}

export interface TokenCall {
  url: string
  headers: Header[]
  /** As sent: the library reads the form itself. */
  body: ArrayBuffer
}

export interface TokenAnswer {
  status: number
  headers: Header[]
  body: string
}

const headersOf = (headers: Headers): Header[] => [...headers].map(([name, value]) => ({ name, value }))
const headersFrom = (headers: Header[]): Headers => new Headers(headers.map(({ name, value }) => [name, value]))

export async function tokenCallOf(request: Request): Promise<TokenCall> {
  return { url: request.url, headers: headersOf(request.headers), body: await request.clone().arrayBuffer() }
}

export function requestOf(call: TokenCall): Request {
  return new Request(call.url, { method: 'POST', headers: headersFrom(call.headers), body: call.body })
}

export async function tokenAnswerOf(response: Response): Promise<TokenAnswer> {
  return { status: response.status, headers: headersOf(response.headers), body: await response.text() }
}

export function responseOf(answer: TokenAnswer): Response {
  return new Response(answer.body || null, { status: answer.status, headers: headersFrom(answer.headers) })
}

/** An OAuth error answer of the token endpoint (RFC 6749, section 5.2), never cached. */
export function oauthErrorAnswer(error: string, description: string, status = 400): Response {
  return Response.json({ error, error_description: description }, { status, headers: { 'Cache-Control': 'no-store' } })
}
