// A port nothing listens on right now, for the processes the end-to-end suites start.
import { type AddressInfo, createServer } from 'node:net'

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((ok) => server.close(() => ok()))
  return port
}
