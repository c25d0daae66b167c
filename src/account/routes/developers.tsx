// /developers for people (HTML) and for assistants (the skill file as markdown).
import { type Context, Hono } from 'hono'
import { accepts } from 'hono/accepts'
import { renderPage, type WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { DevelopersPage } from '../pages/developers'
import { skillMarkdown } from '../skill'

function markdownResponse(c: Context<WebEnv>): Response {
  c.header('Vary', 'Accept')
  return c.body(skillMarkdown(depsOf(c.env).baseUrl), 200, { 'Content-Type': 'text/markdown; charset=utf-8' })
}

export const developersRoutes = new Hono<WebEnv>()

developersRoutes.get('/developers', (c) => {
  const type = accepts(c, { header: 'Accept', supports: ['text/html', 'text/markdown'], default: 'text/html' })
  if (type === 'text/markdown') return markdownResponse(c)
  c.header('Vary', 'Accept')
  return renderPage(c, 'Developers', <DevelopersPage baseUrl={depsOf(c.env).baseUrl} />)
})

developersRoutes.get('/developers/skill.md', (c) => markdownResponse(c))
