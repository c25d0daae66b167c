// The conformance suite has no way to send a bearer token, so it talks to this loopback proxy,
// which adds one and forwards everything else as it came. The proxy's own Host becomes the
// service's; any other Host or Origin (the suite's DNS-rebinding probes) is passed through.
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface AuthProxy {
  url: string
  close(): Promise<void>
}

export async function startAuthProxy(target: string, token: string): Promise<AuthProxy> {
  const upstream = new URL(target)
  const server: Server = createServer((req, res) => {
    const own = [`localhost:${port}`, `127.0.0.1:${port}`]
    const headers = { ...req.headers, authorization: `Bearer ${token}` }
    if (headers.host && own.includes(headers.host)) headers.host = upstream.host
    const forward = request({ hostname: '127.0.0.1', port: upstream.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    forward.on('error', (err) => res.writeHead(502).end(String(err)))
    req.pipe(forward)
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://localhost:${port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  }
}
