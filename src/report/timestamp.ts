/** "2026-11-30 12:00" (UTC) from an ISO timestamp, as eval-action's header shows it. */
export function formatTimestamp(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ')
}
