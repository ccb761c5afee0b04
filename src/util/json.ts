/** A JSON value as it came from YAML or a server. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
