// `npm run mcp:inspect`: the MCP Inspector's CLI against the local service's /mcp, on the port
// `npm start` serves (8787, or `--port N` / PORT, scripts/local-port.mjs). package.json names the
// pinned Inspector and its fixed arguments; this script puts http://localhost:<port>/mcp after
// `--cli` and passes the rest (`--header`, `--method`, …) on to the Inspector.
import { spawn } from 'node:child_process'
import { localPort } from './local-port.mjs'

const { port, rest } = localPort(process.argv.slice(2))
const cli = rest.indexOf('--cli')
if (cli < 0) {
  console.error('mcp:inspect: package.json must call this script with the Inspector package and --cli')
  process.exit(2)
}
const args = ['-y', ...rest.slice(0, cli + 1), `http://localhost:${port}/mcp`, ...rest.slice(cli + 1)]
const child = spawn('npx', args, { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
