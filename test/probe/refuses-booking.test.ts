// The probe cannot book or cancel: its calls go through an allow-list of reads (and the sign-in
// they need) that throws before anything is sent, and its code, bundled as `npm run
// platform:probe` runs it, does not contain the booking paths at all.
import { join } from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { ALLOWED_CALLS, allowListed, RefusedCall } from '../../scripts/platform-probe/allowed-calls'
import { ROOT } from './run'

const BOOKING_PATHS = ['/3/details', '/3/book', '/3/cancel']

describe('the probe refuses to book or cancel', () => {
  it('throws on the details, book and cancel calls (any method) and sends nothing', async () => {
    const sent: string[] = []
    const fetcher = allowListed({
      fetch: async (request) => {
        sent.push(request.url)
        return new Response('{}')
      },
    })
    for (const path of [...BOOKING_PATHS, '/4/book', '/3/details/', '/2/notify'])
      for (const method of ['GET', 'POST'])
        expect(() => fetcher.fetch(new Request(`https://api.resy.com${path}`, { method })), `${method} ${path}`).toThrow(RefusedCall)
    expect(sent).toEqual([])
  })

  it('lets only the read calls through', async () => {
    const sent: string[] = []
    const fetcher = allowListed({
      fetch: async (request) => {
        sent.push(`${request.method} ${new URL(request.url).pathname}`)
        return new Response('{}')
      },
    })
    for (const call of ALLOWED_CALLS) {
      const [method = '', path = ''] = call.split(' ')
      await fetcher.fetch(new Request(`https://api.resy.com${path}?x=1`, { method }))
    }
    expect(sent).toEqual([...ALLOWED_CALLS])
    expect(ALLOWED_CALLS.some((c) => BOOKING_PATHS.some((p) => c.endsWith(p)))).toBe(false)
  })

  it('has no code path to them: the bundle the command runs names none of them, nor the client that books', async () => {
    const bundled = await build({
      entryPoints: [join(ROOT, 'scripts/platform-probe/cli.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      write: false,
      metafile: true,
      logLevel: 'error',
    })
    const code = bundled.outputFiles[0]?.text ?? ''
    expect(code.length).toBeGreaterThan(10_000)
    for (const path of BOOKING_PATHS) expect(code, path).not.toContain(path)
    const inputs = Object.keys(bundled.metafile.inputs)
    expect(inputs).toContain('src/platform/http.ts')
    expect(inputs).not.toContain('src/platform/client.ts')
  })
})
