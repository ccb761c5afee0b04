import { runConformance } from '/work/wt-tasks/src/conformance/run.js'
const defect = process.argv[2] ?? ''
const http = process.argv[3] === 'http'
const main = async () => {
  let config: any = { kind: 'stdio', command: process.execPath, args: ['/work/wt-tasks/__fixtures__/servers/tasks-server.mjs'], env: { DEFECT: defect } }
  let child: any
  if (http) {
    const { spawn } = await import('node:child_process')
    child = spawn(process.execPath, ['/work/wt-tasks/__fixtures__/servers/tasks-server.mjs', '--http'], { env: { ...process.env, DEFECT: defect } })
    const url = await new Promise<string>((r) => child.stdout.once('data', (d: Buffer) => r(d.toString().trim())))
    config = { kind: 'http', url, headers: {} }
  }
  const t = performance.now()
  const report = await runConformance(config)
  console.log('ms', Math.round(performance.now() - t))
  for (const c of report.checks) if (c.id.startsWith('tasks-') || c.status === 'fail' || c.status === 'warn') console.log(c.status, c.id, '—', c.message)
  child?.kill()
}
main()
