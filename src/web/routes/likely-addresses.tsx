// Addresses a diner is likely to type or guess, sent where the page is (a permanent redirect, so
// bookmarks learn it): the inbox and alerts are /notifications, a request is among /requests.
import { Hono } from 'hono'
import type { WebEnv } from '../../html/render'

const LIKELY: Record<string, string> = {
  '/inbox': '/notifications',
  '/alerts': '/notifications',
  '/request': '/requests',
}

export const likelyAddressRoutes = new Hono<WebEnv>()
for (const [from, to] of Object.entries(LIKELY)) likelyAddressRoutes.get(from, (c) => c.redirect(to, 301))
