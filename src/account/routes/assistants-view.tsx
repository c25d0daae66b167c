// The assistants page with its tokens and connected assistants, for the routes that show it.
import type { Context } from 'hono'
import { listGrants } from '../../auth/oauth-grants'
import { listAccessTokens } from '../../auth/pat'
import { currentUser } from '../../auth/session'
import { renderPage, type WebEnv } from '../../html/render'
import { depsOf } from '../../runtime/deps'
import { AssistantsPage, type AssistantsPageProps } from '../pages/assistants'

export async function showAssistants(c: Context<WebEnv>, extra: Partial<AssistantsPageProps> = {}, status: 200 | 201 | 404 | 422 = 200) {
  const user = currentUser(c)
  const deps = depsOf(c.env)
  const [tokens, grants] = await Promise.all([listAccessTokens(deps.db, user.id), listGrants(c.env, user.id)])
  const props: AssistantsPageProps = { csrfToken: c.get('csrfToken'), now: deps.now, tokens, grants, ...extra }
  return renderPage(c, 'Assistants', <AssistantsPage {...props} />, status)
}
