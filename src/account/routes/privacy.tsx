// /privacy: public, for diners and for the connector directories that link it.
import { Hono } from 'hono'
import { renderPage, type WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { PrivacyPage } from '../pages/privacy'

export const privacyRoutes = new Hono<WebEnv>()

privacyRoutes.get('/privacy', (c) => renderPage(c, 'Privacy', <PrivacyPage baseUrl={depsOf(c.env).baseUrl} />))
