// `npm run simulate -- --help` and `npm run bench -- --help` answer with their settings, each with
// the value a run would use, and start no run (the simulation's vitest run, the benchmark's
// `wrangler dev` servers and its 75 minutes); the benchmark refuses other arguments the same way.
import { describe, expect, it } from 'vitest'
import { npmRun } from '../npm-run'

describe('--help of the long runs', () => {
  it('simulate lists SIM_REQUESTS, SEED and SIM_TIMEOUT_MS with the values this run would use, and runs nothing', {
    timeout: 90_000,
  }, async () => {
    const { code, stdout, stderr } = await npmRun('simulate', ['--help'], { SIM_REQUESTS: '250', SEED: 'abc123' })
    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/^\s*SIM_REQUESTS=250\s/m)
    expect(stdout).toMatch(/^\s*SEED=abc123\s/m)
    expect(stdout).toMatch(/^\s*SIM_TIMEOUT_MS=1500000\s/m) // 6 s a request, at least 10 minutes
    expect(`${stdout}${stderr}`).not.toContain('test/simulation/booking-safety.test.ts') // vitest's run or help
  })

  it('bench lists every setting with its default, and starts no server', { timeout: 90_000 }, async () => {
    const { code, stdout, stderr } = await npmRun('bench', ['--help'], { BENCH_SCALE: '2000' })
    expect(code, stderr).toBe(0)
    for (const name of ['BENCH_ONLY', 'BENCH_OBSERVE_SECONDS', 'BENCH_CREATE_MINUTES', 'BENCH_MERGE', 'BENCH_SERVICE_LOG']) {
      expect(stdout).toMatch(new RegExp(`^\\s*${name} \\(default `, 'm'))
    }
    expect(stdout).toMatch(/^\s*BENCH_SCALE \(default 10000, set to 2000\)/m)
    expect(`${stdout}${stderr}`).not.toContain('[bench +')
  })

  it('bench refuses other arguments with its settings, exit code 2, and starts no server', { timeout: 90_000 }, async () => {
    const { code, stdout, stderr } = await npmRun('bench', ['--scale', '100'])
    expect(code).toBe(2)
    expect(stderr).toContain('unexpected arguments "--scale 100"')
    expect(stderr).toContain('BENCH_SCALE (default 10000)')
    expect(`${stdout}${stderr}`).not.toContain('[bench +')
  })
})
