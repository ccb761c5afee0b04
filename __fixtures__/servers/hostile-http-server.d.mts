import type { ServerResponse } from 'node:http'

interface Listening {
  url: string
  close(): Promise<void>
}
export function gzipBomb(res: ServerResponse, options: { prefix: string; suffix?: string; inflateMb?: number; headers?: Record<string, string> }): Promise<number>
export function startHostileHttpServer(options?: { inflateMb?: number }): Promise<Listening & { bombed: number[]; requests: { method: string; url: string; headers: Record<string, string | string[] | undefined> }[] }>
export function startRedirector(target: string): Promise<Listening>
export function startRecorder(): Promise<Listening & { received: Record<string, string | string[] | undefined>[] }>
