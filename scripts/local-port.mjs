// The local port and the options the local scripts share (`npm start`, `npm run mcp:inspect`): the
// port is 8787 unless `--port N` (or `--port=N`) or the PORT environment variable says otherwise,
// so every local command that talks to the service follows the same rule.

/** The value of `--name value` or `--name=value` in the arguments, and the arguments without it. */
export function takeOption(args, name) {
  const rest = []
  let value
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === name && i + 1 < args.length) value = args[++i]
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1)
    else rest.push(arg)
  }
  return { value, rest }
}

/** The port the arguments or PORT name (8787 otherwise), and the arguments without `--port`; exits on a bad port. */
export function localPort(args, env = process.env) {
  const { value, rest } = takeOption(args, '--port')
  const port = value ?? env.PORT ?? '8787'
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    console.error(`the port must be a number from 1 to 65535, not "${port}"`)
    process.exit(2)
  }
  return { port, rest }
}
