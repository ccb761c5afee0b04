export function startRawHttpServer(options?: { trim?: boolean }): Promise<{
  url: string
  close(): Promise<void>
}>
