// The local-development exception (plain-http webhooks to this machine, running without
// PUBLIC_BASE_URL; src/core/deployment.ts) exists only in the local configuration (issue 12, L2
// and "Also"): read the way wrangler reads wrangler.toml for each environment.

import { describe, expect, it } from 'vitest'
import { unstable_readConfig } from 'wrangler'

const varsOf = (env?: string) => unstable_readConfig({ config: 'wrangler.toml', env }).vars

describe('the deployment configuration', () => {
  it('production runs under production rules: no local-development exception', () => {
    expect(varsOf('production').LOCAL_DEVELOPMENT).toBe('off')
  })

  it.each([
    ['npm start (the top level)', undefined],
    ['the benchmark', 'bench'],
  ])('%s runs with the local-development exception', (_label, env) => {
    expect(varsOf(env).LOCAL_DEVELOPMENT).toBe('on')
  })
})
