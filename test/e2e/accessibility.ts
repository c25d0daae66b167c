// axe-core on every page the end-to-end suites open. Each browser context records the HTML
// documents the service sent (the exact bytes, whatever state they show: an error, a
// confirmation step, a new token); when the browser closes, each distinct document is served
// again at its own URL in a fresh page (so the service's own styles and script load) and axe
// checks it. Any violation fails the test file that opened the page. Auditing after the fact
// means a test that navigates quickly cannot race axe, and each state is checked once.
import { createHash } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import type { Browser, BrowserContext } from 'playwright-core'
import { inject } from 'vitest'

export interface SeenDocument {
  url: string
  status: number
  html: string
}

export interface Violation {
  url: string
  rule: string
  impact: string
  targets: string[]
  help: string
}

/** The service's own pages (the harness's origin), not an OAuth client's callback page. */
function isServicePage(url: string): boolean {
  return new URL(url).origin === new URL(inject('baseUrl')).origin
}

/** Documents that differ only in per-visit values (CSRF fields, ids, times) are audited once. */
function shapeOf(doc: SeenDocument): string {
  const html = doc.html.replace(/value="[^"]*"/g, 'value=""').replace(/[0-9]+/g, '0')
  return createHash('sha256')
    .update(`${doc.status} ${new URL(doc.url).pathname.replace(/[0-9]+/g, '0')} ${html}`)
    .digest('hex')
}

export class DocumentRecorder {
  readonly documents = new Map<string, SeenDocument>()
  private readonly pending = new Set<Promise<void>>()

  watch(context: BrowserContext): void {
    const close = context.close.bind(context)
    context.close = async (options) => {
      await this.settled()
      return close(options)
    }
    context.on('response', (response) => {
      const request = response.request()
      if (request.resourceType() !== 'document' || !isServicePage(response.url())) return
      if (!(response.headers()['content-type'] ?? '').includes('text/html')) return
      if (response.status() >= 300 && response.status() < 400) return
      const read = response
        .text()
        .then((html) => {
          const doc = { url: response.url(), status: response.status(), html }
          const shape = shapeOf(doc)
          if (!this.documents.has(shape)) this.documents.set(shape, doc)
        })
        // A document the browser dropped before it was read (a quick second navigation) is
        // seen again the next time the test opens it.
        .catch(() => {})
        .finally(() => this.pending.delete(read))
      this.pending.add(read)
    })
  }

  async settled(): Promise<void> {
    await Promise.all([...this.pending])
  }
}

/** Each browser's own newContext, which does not record (auditOnClose replaces the method). */
const unrecorded = new WeakMap<Browser, Browser['newContext']>()

/** Serves each document again at its URL and runs axe on it. */
export async function audit(browser: Browser, documents: Iterable<SeenDocument>): Promise<Violation[]> {
  const newContext = unrecorded.get(browser) ?? browser.newContext.bind(browser)
  const context = await newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  const violations: Violation[] = []
  try {
    for (const doc of documents) {
      await page.route(doc.url, (route) => route.fulfill({ status: doc.status, contentType: 'text/html; charset=utf-8', body: doc.html }))
      await page.goto(doc.url, { waitUntil: 'load' })
      const results = await new AxeBuilder({ page }).analyze()
      await page.unroute(doc.url)
      for (const v of results.violations)
        violations.push({
          url: doc.url,
          rule: v.id,
          impact: v.impact ?? 'unknown',
          targets: v.nodes.map((n) => n.target.join(' ')),
          help: v.help,
        })
    }
  } finally {
    await context.close()
  }
  return violations
}

export function describeViolations(violations: Violation[]): string {
  return violations.map((v) => `${v.rule} (${v.impact}) at ${v.url}: ${v.help}; ${v.targets.slice(0, 5).join(', ')}`).join('\n')
}

/**
 * Makes every context of this browser record the service's pages, and its close() audit them
 * first: it throws (failing the file's afterAll) when axe finds any violation.
 */
export function auditOnClose(browser: Browser): Browser {
  const recorder = new DocumentRecorder()
  const newContext = browser.newContext.bind(browser)
  const close = browser.close.bind(browser)
  unrecorded.set(browser, newContext)
  browser.newContext = async (options) => {
    const context = await newContext(options)
    recorder.watch(context)
    return context
  }
  browser.newPage = async (options) => {
    const context = await browser.newContext(options)
    return context.newPage()
  }
  browser.close = async (options) => {
    await recorder.settled()
    let violations: Violation[] = []
    try {
      violations = await audit(browser, recorder.documents.values())
    } finally {
      await close(options)
    }
    if (violations.length > 0) throw new Error(`axe-core found ${violations.length} violation(s):\n${describeViolations(violations)}`)
  }
  return browser
}
