/**
 * "2026-11-30 12:00" (UTC) from an ISO timestamp, as eval-action's header shows it. A timestamp
 * can come from a baseline file anyone could have written: anything but one shows as "unknown time".
 */
export function formatTimestamp(iso: string): string {
  const shown = String(iso).slice(0, 16).replace('T', ' ')
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(shown) ? shown : 'unknown time'
}
