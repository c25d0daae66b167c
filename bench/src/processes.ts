// The two `wrangler dev` processes the benchmark runs: the sandbox platform on its own port,
// and the service in `[env.bench]`, which reaches the sandbox over HTTP (PLATFORM_BASE_URL),
// so the real platform client is exercised over a real socket. Each keeps its state in a
// --persist-to directory; the service can be killed (SIGKILL, as in a crash) and started again
// on the same state.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { type AddressInfo, createServer } from 'node:net'
import { join } from 'node:path'

export const ROOT = join(import.meta.dirname, '..', '..')
const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js')
const READY_TIMEOUT_MS = 180_000

export const wranglerEnv = () => ({ ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' })

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((ok) => server.close(() => ok()))
  return port
}

/** Runs a short wrangler command to its end; throws with its output if it fails. */
export function wranglerSync(args: string[]): string {
  const done = spawnSync(process.execPath, [WRANGLER, ...args], {
    cwd: ROOT,
    env: wranglerEnv(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (done.status !== 0) throw new Error(`wrangler ${args.slice(0, 3).join(' ')} failed:\n${done.stdout}\n${done.stderr}`)
  return done.stdout
}

/**
 * The port chosen was taken before `wrangler dev` could bind it: on a machine shared with other
 * runs, another process's server may answer there (freePort only knew it was free a moment ago).
 */
export class PortTaken extends Error {}

/** Starts a server on a free port, and on another if someone else took that one meanwhile. */
export async function startOnFreePort(make: (port: number) => DevServer, attempts = 4): Promise<DevServer> {
  for (let attempt = 1; ; attempt++) {
    const server = make(await freePort())
    try {
      await server.start()
      return server
    } catch (err) {
      await server.stop()
      if (!(err instanceof PortTaken) || attempt >= attempts) throw err
    }
  }
}

export class DevServer {
  #child: ChildProcess | null = null
  #lines: ((line: string) => void)[] = []
  #tail = ''
  readonly origin: string

  /**
   * `isOurs` tells this server's answer from another's on the same port (a request only this
   * run's secrets get answered): a shared machine's other runs take ports too.
   */
  constructor(
    readonly label: string,
    private readonly args: string[],
    readonly port: number,
    private readonly isOurs: (origin: string) => Promise<boolean> = async () => true,
  ) {
    this.origin = `http://127.0.0.1:${port}`
  }

  /** Every line the process prints (request logs, console.log of the workers). */
  onLine(listener: (line: string) => void): void {
    this.#lines.push(listener)
  }

  async start(): Promise<void> {
    const inspector = await freePort()
    const child = spawn(
      process.execPath,
      [
        WRANGLER,
        'dev',
        ...this.args,
        '--port',
        String(this.port),
        '--ip',
        '127.0.0.1',
        '--inspector-port',
        String(inspector),
        '--show-interactive-dev-session=false',
      ],
      {
        cwd: ROOT,
        env: wranglerEnv(),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    this.#child = child
    let partial = ''
    const feed = (chunk: Buffer) => {
      partial += chunk.toString()
      const lines = partial.split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) {
        this.#tail = `${this.#tail + line}\n`.slice(-6000)
        for (const listener of this.#lines) listener(line)
      }
    }
    child.stdout?.on('data', feed)
    child.stderr?.on('data', feed)
    await this.#ready()
  }

  async #ready(): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS
    while (Date.now() < deadline) {
      if (this.#tail.includes('Address already in use')) throw new PortTaken(`${this.label}: port ${this.port} was taken`)
      if (this.#child?.exitCode !== null) throw new Error(`${this.label} exited early:\n${this.#tail}`)
      try {
        const res = await fetch(`${this.origin}${this.label === 'sandbox' ? '/__sandbox/venues' : '/health'}`, {
          signal: AbortSignal.timeout(2_000),
        })
        if (res.ok && (await this.isOurs(this.origin))) return
      } catch {
        // not listening yet
      }
      await sleep(300)
    }
    throw new Error(`${this.label} was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${this.#tail}`)
  }

  /** Stops the process group: SIGKILL is a crash (nothing flushed), SIGTERM a clean stop. */
  async stop(signal: 'SIGKILL' | 'SIGTERM' = 'SIGTERM'): Promise<void> {
    const child = this.#child
    if (!child || child.exitCode !== null || child.pid === undefined) return
    const exited = new Promise((ok) => child.once('exit', ok))
    process.kill(-child.pid, signal)
    const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
    this.#child = null
  }

  /**
   * Resident memory of the workerd process that runs the workers, in MiB, from /proc. wrangler
   * dev starts two: a small entry proxy on the public port, and the runtime (with an inspector).
   */
  workerdRssMiB(): number | null {
    const root = this.#child?.pid
    if (root === undefined) return null
    const workerds = descendants(root).filter((pid) => readProc(pid, 'cmdline').includes('workerd'))
    const workerd = workerds.find((pid) => readProc(pid, 'cmdline').includes('inspector-addr')) ?? workerds[0]
    if (workerd === undefined) return null
    const rss = /VmRSS:\s+(\d+) kB/.exec(readProc(workerd, 'status'))
    return rss ? Number(rss[1]) / 1024 : null
  }
}

function readProc(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8')
  } catch {
    return ''
  }
}

function descendants(root: number): number[] {
  const parentOf = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const ppid = /PPid:\s+(\d+)/.exec(readProc(Number(entry), 'status'))
    if (ppid) parentOf.set(Number(entry), Number(ppid[1]))
  }
  const found: number[] = []
  const queue = [root]
  while (queue.length > 0) {
    const pid = queue.shift() as number
    for (const [child, parent] of parentOf) {
      if (parent === pid) {
        found.push(child)
        queue.push(child)
      }
    }
  }
  return found
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
