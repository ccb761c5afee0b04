import type { AppHostOpening, AppHostOptions } from './types.js'

/** Placeholder until the browser host lands (another part of issue 30): no host, and why. */
export async function openAppHost(_options: AppHostOptions): Promise<AppHostOpening> {
  return { host: null, reason: 'the browser host is not built into this version' }
}
