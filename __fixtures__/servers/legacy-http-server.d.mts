export function startLegacyHttpServer(options?: { checkOrigin?: boolean }): Promise<{
  url: string
  requests: { method: string; session: string | undefined; headers: Record<string, string | string[] | undefined> }[]
  minted: string[]
  open: Set<string>
  close(): Promise<void>
}>
