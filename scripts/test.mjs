// `npm test`: every vitest project (vitest.config.ts), in three lanes that run side by side. A lane
// is one `vitest run` over its projects, one after another; the lanes overlap because much of an
// end-to-end lane is waiting (for the watcher's 15 s polls, a token to expire, a page), while the
// workerd lane keeps the cores busy. The two e2e projects have servers of their own, so they never
// share a platform world. Each lane's lines are prefixed with its name; the end says how each went.
//
//   npm test                          the three lanes
//   npm test -- --project pure        any arguments: one plain `vitest run` with them instead
import { spawn } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs')

/** Which projects run in which lane: the lanes take about as long as each other on 2 cores. */
const LANES = [
  { name: 'workerd', projects: ['pure', 'probe', 'workers', 'watch'] },
  { name: 'e2e', projects: ['e2e'] },
  { name: 'e2e-tools', projects: ['e2e-tools', 'e2e-account', 'simulation'] },
]

const extra = process.argv.slice(2)
if (extra.length > 0) {
  const child = spawn(process.execPath, [vitest, 'run', ...extra], { cwd: root, stdio: 'inherit' })
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
} else {
  await runLanes()
}

async function runLanes() {
  const started = Date.now()
  // The e2e projects write their screenshots into one folder: emptied once, for the whole run.
  rmSync(join(root, 'screenshots'), { recursive: true, force: true })
  mkdirSync(join(root, 'screenshots'), { recursive: true })
  const env = {
    ...process.env,
    TABLEWATCH_TEST_RUN_STARTED_AT: String(started),
    WRANGLER_SEND_METRICS: process.env.WRANGLER_SEND_METRICS ?? 'false',
    ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}),
  }
  const width = Math.max(...LANES.map((lane) => lane.name.length))
  const children = []
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      for (const child of children) child.kill(signal)
    })
  const results = await Promise.all(
    LANES.map(
      (lane) =>
        new Promise((done) => {
          const args = [vitest, 'run', ...lane.projects.flatMap((project) => ['--project', project])]
          const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
          children.push(child)
          const prefix = `[${lane.name.padEnd(width)}] `
          for (const stream of [child.stdout, child.stderr])
            prefixLines(stream, prefix, stream === child.stdout ? process.stdout : process.stderr)
          child.on('exit', (code, signal) => done({ lane, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 }))
        }),
    ),
  )
  console.log(`\nnpm test: ${formatSeconds((Date.now() - started) / 1000)} in all`)
  for (const { lane, code, seconds } of results) {
    console.log(
      `  ${lane.name.padEnd(width)}  ${code === 0 ? 'passed' : `FAILED (exit ${code})`}  ${formatSeconds(seconds)}  (${lane.projects.join(', ')})`,
    )
  }
  process.exit(results.find((r) => r.code !== 0)?.code ?? 0)
}

/** Copies `stream` to `out` line by line, each line prefixed with the lane's name. */
function prefixLines(stream, prefix, out) {
  let partial = ''
  stream.on('data', (chunk) => {
    const lines = (partial + chunk.toString()).split('\n')
    partial = lines.pop() ?? ''
    for (const line of lines) out.write(`${prefix}${line}\n`)
  })
  stream.on('end', () => partial && out.write(`${prefix}${partial}\n`))
}

function formatSeconds(seconds) {
  const m = Math.floor(seconds / 60)
  const s = Math.round(seconds % 60)
  return m > 0 ? `${m} min ${s} s` : `${s} s`
}
