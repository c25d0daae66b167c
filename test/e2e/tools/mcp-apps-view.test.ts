// The request view as an MCP Apps host shows it, against `wrangler dev`: the host's MCP side is
// the SDK client (it reads the ui:// resource and calls the tools), and its page side is a
// minimal host page written here that speaks the Apps protocol over postMessage, the way a web
// host does: it renders the resource in a sandboxed frame, answers `ui/initialize`, hands the
// view the tool's result and handles `ui/open-link`. Checked at phone and desktop width, with no
// network for the view, and without the view ever approving anything.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Browser, Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser, SCREENSHOT_DIR } from '../browser'
import { dinnerAt, findVenue } from '../diner'
import { seededToken } from '../tokens'

const baseUrl = inject('baseUrl')
const VIEW_URI = 'ui://tablewatch/request.html'

/** The host page: one sandboxed frame for the view, and the host's half of the protocol. */
const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host</title>
<style>body{margin:0}iframe{border:1px solid #ccc;width:100%;height:200px;display:block}</style></head>
<body><main><iframe id="view" title="Tablewatch request" sandbox="allow-scripts"></iframe></main>
<script>
window.hostLog = [];
window.openedLinks = [];
window.startView = (html, toolResult, toolArguments) => {
  const frame = document.getElementById('view');
  window.addEventListener('message', (event) => {
    if (event.source !== frame.contentWindow) return;
    const message = event.data;
    window.hostLog.push(message);
    const answer = (result) => frame.contentWindow.postMessage({ jsonrpc: '2.0', id: message.id, result }, '*');
    if (message.method === 'ui/initialize') {
      answer({
        protocolVersion: '2026-01-26',
        hostInfo: { name: 'test-host', version: '1.0.0' },
        hostCapabilities: { openLinks: {} },
        hostContext: { theme: 'light', displayMode: 'inline', platform: 'web' },
      });
    } else if (message.method === 'ui/notifications/initialized') {
      frame.contentWindow.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: toolArguments } }, '*');
      frame.contentWindow.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: toolResult }, '*');
    } else if (message.method === 'ui/open-link') {
      window.openedLinks.push(message.params.url);
      answer({});
    } else if (message.method === 'ui/notifications/size-changed') {
      frame.style.height = message.params.height + 'px';
    }
  });
  frame.srcdoc = html;
};
</script></body></html>`

let browser: Browser
let client: Client
let token: string

beforeAll(async () => {
  browser = await launchBrowser()
  token = await seededToken('Apps host')
  client = new Client({ name: 'apps-host', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  })
  await client.connect(transport)
})
afterAll(async () => {
  await client?.close()
  await browser?.close()
})

async function viewHtml(): Promise<string> {
  const read = await client.readResource({ uri: VIEW_URI })
  const [content] = read.contents
  expect(content?.mimeType).toBe('text/html;profile=mcp-app')
  return String(content && 'text' in content ? content.text : '')
}

interface Shown {
  page: Page
  frame: Frame
  requests: string[]
}

/** Opens the host page at this width and renders the view with this tool result. */
async function show(width: number, result: unknown, args: unknown): Promise<Shown> {
  const page = await browser.newPage({ viewport: { width, height: 900 } })
  const requests: string[] = []
  page.on('request', (request) => requests.push(request.url()))
  await page.setContent(HOST_PAGE)
  await page.evaluate(([html, toolResult, toolArguments]) => window.startView(html, toolResult, toolArguments), [
    await viewHtml(),
    result,
    args,
  ] as const)
  const frame = await (await page.waitForSelector('#view')).contentFrame()
  if (!frame) throw new Error('the view frame did not load')
  await frame.waitForFunction(() => !document.querySelector('main')?.textContent?.startsWith('Loading'))
  return { page, frame, requests }
}

/** The view's document is no wider than its frame (nothing to scroll sideways). */
async function fitsItsFrame(frame: Frame): Promise<boolean> {
  return frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)
}

declare global {
  interface Window {
    startView(html: string, toolResult: unknown, toolArguments: unknown): void
    hostLog: { method?: string }[]
    openedLinks: string[]
  }
}

describe('the request view in an MCP Apps host', () => {
  it('shows a request waiting for approval, and its button only asks the host to open the approval page', async () => {
    const venue = await findVenue(baseUrl, token, 'Cassia Room')
    const spec = dinnerAt(venue, 'auto_book', [21], { title: 'Apps card dinner', earliest_time: '05:00', latest_time: '05:30' })
    const args = { spec, idempotency_key: `apps-${Date.now()}` }
    const created = await client.callTool({ name: 'svc_create_request', arguments: args })
    const view = created.structuredContent as { id: string; status: string; action_url: string; revision: number }
    expect(view.status).toBe('needs_approval')
    await mkdir(SCREENSHOT_DIR, { recursive: true })

    for (const width of [390, 1280]) {
      const { page, frame, requests } = await show(width, created, args)
      expect(await frame.getByRole('heading', { level: 1 }).innerText()).toBe('Apps card dinner')
      const text = (await frame.locator('main').textContent()) ?? ''
      expect(text).toContain('Waiting for your approval')
      expect(text).toContain('What it watches')
      expect(text).toContain(String((spec.dates as string[])[0]))
      expect(text).toContain('Tables found')
      expect(text).toContain('What happens next')
      expect(text).toContain('Nothing is watched or booked until you approve')
      expect(await fitsItsFrame(frame)).toBe(true)
      const button = frame.getByRole('button', { name: 'Review and approve on Tablewatch' })
      const box = await button.boundingBox()
      expect(box?.height ?? 0).toBeGreaterThanOrEqual(44)
      await page.screenshot({ path: join(SCREENSHOT_DIR, `mcp-app-request-${width}.png`), fullPage: true })

      await button.click()
      await expect.poll(() => page.evaluate(() => window.openedLinks)).toEqual([view.action_url])
      const methods = (await page.evaluate(() => window.hostLog)).map((m) => m.method)
      expect(methods).toEqual(expect.arrayContaining(['ui/initialize', 'ui/notifications/initialized', 'ui/open-link']))
      // The view asked for nothing over the network: the only requests are none at all.
      expect(requests).toEqual([])
      await page.close()
    }

    // Opening the link approved nothing: the request still waits for the user on the service's page.
    const again = await client.callTool({ name: 'svc_get_request', arguments: { request_id: view.id } })
    expect((again.structuredContent as { status: string }).status).toBe('needs_approval')
    // And that page still refuses to be framed.
    const approvalPage = await fetch(view.action_url, { redirect: 'manual' })
    expect(approvalPage.headers.get('X-Frame-Options')).toBe('DENY')
  })

  it('shows an alert-only request as watching, with no button', async () => {
    const venue = await findVenue(baseUrl, token, 'Cassia Room')
    const spec = dinnerAt(venue, 'alert_only', [20], { title: 'Apps card alerts', earliest_time: '05:00', latest_time: '05:30' })
    const created = await client.callTool({ name: 'svc_create_request', arguments: { spec, idempotency_key: `apps-a-${Date.now()}` } })
    const { id } = created.structuredContent as { id: string }
    const read = await client.callTool({ name: 'svc_get_request', arguments: { request_id: id } })
    const { page, frame } = await show(390, read, { request_id: id })
    const text = (await frame.locator('main').textContent()) ?? ''
    expect(text).toContain('Watching')
    expect(text).toContain('Alert only')
    expect(await frame.getByRole('button').count()).toBe(0)
    await page.close()
  })

  it('cannot reach the network, even the service itself', async () => {
    const { page, frame } = await show(1280, { content: [], structuredContent: {} }, {})
    const outcome = await frame.evaluate(
      (url) =>
        fetch(url).then(
          () => 'loaded',
          () => 'blocked',
        ),
      `${baseUrl}/health`,
    )
    expect(outcome).toBe('blocked')
    await page.close()
  })

  it('never opens a link to another site, whatever the result says', async () => {
    const forged = {
      content: [],
      structuredContent: {
        id: 'sr_forged',
        status: 'needs_approval',
        title: 'Forged',
        action_url: 'https://evil.example/requests/sr_forged/approve',
        venue_ids: [1],
        dates: [],
        reservations: [],
        trace: [],
        warnings: [],
      },
    }
    const { page, frame } = await show(390, forged, {})
    expect(await frame.getByRole('button').count()).toBe(0)
    await page.close()
  })
})
