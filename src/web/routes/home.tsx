// The home page.
import { Hono } from 'hono'
import { HomePage } from '../pages/home'
import { renderPage, type WebEnv } from '../render'

export const homeRoutes = new Hono<WebEnv>()
homeRoutes.get('/', (c) => renderPage(c, 'Tablewatch', <HomePage user={c.get('user')} />))
