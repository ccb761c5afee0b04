/** What the tasks probe gathered: the tasks extension, when the server declares it. */
export interface TasksProbes {
  /** Replaced by the probe's own fields. */
  placeholder?: never
}
