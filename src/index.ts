import { run } from './main.js'

await run()
// The step is over: nothing a server or a request left open may keep it running.
process.exit()
