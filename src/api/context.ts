// Context variables of the REST skin: who is calling, and the use-case dependencies.
import type { Principal } from '../core/principal'
import type { Deps } from '../runtime/deps'

export type ApiEnv = {
  Bindings: Cloudflare.Env
  Variables: { principal: Principal; deps: Deps }
}
