import { runConformance } from './src/conformance/run.js'
import { startHttpServer } from './__fixtures__/servers/http-server.mjs'
const show = (name: string, r: Awaited<ReturnType<typeof runConformance>>) => {
  console.log(`== ${name}: ${r.era} ${r.negotiated_version} ${r.duration_ms}ms ${JSON.stringify(r.server_info)} ${r.error ?? ''}`)
  for (const c of r.checks) if (c.status !== 'pass') console.log(`  ${c.status} ${c.id}: ${c.message.slice(0, 200)}`)
  for (const m of r.migration) console.log('  -> ' + m.slice(0, 120))
}
show('example stdio', await runConformance({ kind: 'stdio', command: 'node', args: ['examples/server/server.mjs'], env: {} }))
const http = await startHttpServer()
show('example http', await runConformance({ kind: 'http', url: http.url, headers: {} }))
await http.close()
show('legacy fixture', await runConformance({ kind: 'stdio', command: 'node', args: ['__fixtures__/servers/legacy-server.mjs'], env: {} }))
show('server-everything', await runConformance({ kind: 'stdio', command: 'node', args: ['node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'], env: {} }))
