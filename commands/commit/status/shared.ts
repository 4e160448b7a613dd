// What the status verbs share: the states GitLab knows.
export const STATES = ['pending', 'running', 'success', 'failed', 'canceled'] as const
