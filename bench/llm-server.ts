// The benchmark's model: the scripted LLM in its own process (as a real endpoint would be), so
// its work does not count as harness time. Prints its URL on the first line of stdout; when its
// stdin ends it prints what it served and the CPU it spent, `{"requests":N,"cpu_ms":X}`, and exits.
//   tsx bench/llm-server.ts <delay ms> <tool name> <tool args JSON>
import { answer, kindOf, startScriptedLlm, steps, toolCalls, verdict } from '../__fixtures__/scripted-llm.js'

const [delay, name, args] = process.argv.slice(2)
const tool = { name, args: JSON.parse(args) as unknown }
let requests = 0
const llm = await startScriptedLlm(
  (req) => {
    requests++
    const kind = kindOf(req)
    if (kind === 'steps') return steps(req.model)
    if (kind === 'score') return verdict(req.model, 8, 'good')
    return req.messages.some((m) => m.role === 'tool') ? answer(req.model, 'done') : toolCalls(req.model, [tool])
  },
  { delayMs: Number(delay) }
)
process.stdout.write(`${llm.url}\n`)
process.stdin.resume()
process.stdin.on('end', () =>
  void llm.close().then(() => {
    const cpu = process.cpuUsage()
    process.stdout.write(`${JSON.stringify({ requests, cpu_ms: (cpu.user + cpu.system) / 1000 })}\n`, () => process.exit(0))
  })
)
