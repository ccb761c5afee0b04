import { run } from './main.js'

// The step is over: exit with run()'s code, and let nothing a server or a request left open keep it running.
process.exit(await run())
