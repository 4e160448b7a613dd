// A fatal config error (YAML, include, extends, a logical check): GitLab stops at the first and reports it alone.
export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}
