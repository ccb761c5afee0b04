import { enableCompileCache } from './github/compile-cache.js'

// The compile cache first, then the action: it covers only what is loaded after it is enabled,
// so the action (its own bundle chunk) is imported here, not above.
enableCompileCache()
const { run } = await import('./main.js')

// The step is over: exit with run()'s code, and let nothing a server or a request left open keep it running.
process.exit(await run())
