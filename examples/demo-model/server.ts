// Serve the demo model as an OpenAI-compatible endpoint: npx tsx examples/demo-model/server.ts [port]
import { startScriptedLlm } from '../../__fixtures__/scripted-llm.js'
import { demoBrain } from './brain.js'

const port = Number(process.argv[2] ?? 0)
const llm = await startScriptedLlm(demoBrain, { port })
process.stdout.write(`demo model listening at ${llm.url}\n`)
