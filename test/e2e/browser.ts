// Headless Chromium for the page tests: the npm build from @sparticuz/chromium (no system
// install needed), or Debian's /usr/bin/chromium when that one cannot start here.
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { auditOnClose } from './accessibility'

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

async function sparticuzPath(): Promise<string | null> {
  try {
    const { default: packaged } = await import('@sparticuz/chromium')
    return await packaged.executablePath()
  } catch {
    return null
  }
}

/**
 * Chromium for a test file. Every page it opens on the service is checked with axe-core when
 * the file closes the browser (accessibility.ts): a violation fails the file.
 */
export async function launchBrowser(): Promise<Browser> {
  return auditOnClose(await startChromium())
}

async function startChromium(): Promise<Browser> {
  const packaged = await sparticuzPath()
  if (packaged) {
    try {
      return await chromium.launch({ executablePath: packaged, args: ARGS })
    } catch (err) {
      if (!existsSync('/usr/bin/chromium')) throw err
    }
  }
  if (!existsSync('/usr/bin/chromium')) throw new Error('No Chromium: @sparticuz/chromium failed and /usr/bin/chromium is absent')
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS })
}

export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../screenshots')

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const

/** Full-page screenshots of what the page shows now, at phone and desktop width. */
export async function screenshotBoth(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true })
  const original = page.viewportSize()
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size)
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${label}.png`), fullPage: true })
  }
  if (original) await page.setViewportSize(original)
}
