// The HTTP side of the fixture servers: a Web-standard fetch handler (the SDK's createMcpHandler)
// served by node:http on 127.0.0.1, each request body shown to `onBody` before it is handled.
import { createServer } from 'node:http'

/**
 * Serve `handler` on a free port of 127.0.0.1 under /mcp. A client that goes away mid-answer
 * (a cut stream) ends that answer quietly. `close` ends the handler's sessions and the server.
 */
export async function serveFetch(handler, { onBody = () => undefined } = {}) {
  const server = createServer(async (req, res) => {
    const chunks = []
    for await (const c of req) chunks.push(c)
    const body = chunks.length ? Buffer.concat(chunks) : undefined
    onBody(req.method, body)
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body })
    const response = await handler.fetch(request)
    res.writeHead(response.status, Object.fromEntries(response.headers))
    try {
      if (response.body) for await (const chunk of response.body) res.write(chunk)
    } catch {
      // The client went away mid-answer: nothing left to send it.
    }
    res.end()
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: async () => {
      await handler.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}
