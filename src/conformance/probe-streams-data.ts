/** What the streams probe gathered: subscriptions/listen, log notifications, what rides on a response stream. */
export interface StreamsProbes {
  /** Replaced by the probe's own fields. */
  placeholder?: never
}
