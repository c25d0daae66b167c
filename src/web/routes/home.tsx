// The home page; a signed-in user's shows the setup checklist until it is done.
import { Hono } from 'hono'
import { depsOf } from '../../requests/deps'
import { setupDone, setupProgress } from '../../requests/setup-progress'
import { HomePage } from '../pages/home'
import { renderPage, type WebEnv } from '../render'

export const homeRoutes = new Hono<WebEnv>()
homeRoutes.get('/', async (c) => {
  const user = c.get('user')
  const progress = user ? await setupProgress(depsOf(c.env, c.req.url), user.id) : null
  const setup = progress && !setupDone(progress) ? progress : null
  return renderPage(c, 'Tablewatch', <HomePage user={user} setup={setup} welcome={c.req.query('welcome') === '1'} />)
})
