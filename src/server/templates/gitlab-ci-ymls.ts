// collab's .gitlab-ci.yml templates, by GitLab's template names (Pages/HTML and the like keep GitLab's folder prefix).
import { DELIVERY_CI_YMLS } from './gitlab-ci-ymls-delivery.js'
import { LANGUAGE_CI_YMLS } from './gitlab-ci-ymls-languages.js'

export const GITLAB_CI_YMLS: Readonly<Record<string, string>> = { ...LANGUAGE_CI_YMLS, ...DELIVERY_CI_YMLS }
