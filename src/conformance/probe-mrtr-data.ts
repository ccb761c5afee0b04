/** What the mrtr probe gathered: multi round-trip requests (input_required rounds) on real calls. */
export interface MrtrProbes {
  /** Replaced by the probe's own fields. */
  placeholder?: never
}
