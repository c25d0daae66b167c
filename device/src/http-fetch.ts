// A fetch for a machine with several addresses: the platform's calls leave from the one given
// (`--local-address`), as a multi-homed machine or a test of the sandbox's datacenter mode needs
// (the sandbox tells a home network by the address a call comes from: sandbox/src/network.ts).
// Node's global fetch has no such option, so this speaks HTTP with node:http(s).
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Fetcher } from '../../src/platform/http'

export function fetcherFrom(localAddress: string | undefined): Fetcher {
  if (!localAddress) return { fetch: (request) => fetch(request) }
  return { fetch: (request) => fetchFrom(localAddress, request) }
}

async function fetchFrom(localAddress: string, request: Request): Promise<Response> {
  const url = new URL(request.url)
  const body = request.body === null ? null : Buffer.from(await request.arrayBuffer())
  const headers: Record<string, string> = {}
  request.headers.forEach((value, key) => {
    headers[key] = value
  })
  if (body !== null) headers['content-length'] = String(body.length)
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<Response>((resolve, reject) => {
    const req = send(url, { method: request.method, headers, localAddress, signal: request.signal }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        const answer = new Headers()
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) answer.append(name, v)
        }
        const status = res.statusCode ?? 502
        const text = Buffer.concat(chunks)
        resolve(new Response(status === 204 || status === 304 ? null : text, { status, headers: answer }))
      })
    })
    req.on('error', reject)
    req.end(body ?? undefined)
  })
}
