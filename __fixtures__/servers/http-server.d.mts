export function startHttpServer(options?: { token?: string }): Promise<{
  url: string
  requests: { method: string; headers: Record<string, string | string[] | undefined> }[]
  close(): Promise<void>
}>
