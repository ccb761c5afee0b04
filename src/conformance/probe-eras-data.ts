/** What the eras probe gathered: the eras a server speaks: dual-era detection, removed methods, the 2025-era lifecycle. */
export interface ErasProbes {
  /** Replaced by the probe's own fields. */
  placeholder?: never
}
