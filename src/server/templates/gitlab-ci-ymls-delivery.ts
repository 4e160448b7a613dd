// .gitlab-ci.yml templates that build and ship things (images, Pages sites, documents, infrastructure), under GitLab's
// template names and with GitLab's images; written for collab.
export const DELIVERY_CI_YMLS: Readonly<Record<string, string>> = {
  Docker: `# Builds the Dockerfile's image and pushes it to the project's registry, tagged with the branch (latest on the default one).
docker-build:
  image: docker:cli
  stage: build
  services:
    - docker:dind
  variables:
    DOCKER_IMAGE_NAME: $CI_REGISTRY_IMAGE:$CI_COMMIT_REF_SLUG
  before_script:
    - docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" $CI_REGISTRY
  script:
    - docker build --pull -t "$DOCKER_IMAGE_NAME" .
    - docker push "$DOCKER_IMAGE_NAME"
    - |
      if [ "$CI_COMMIT_BRANCH" = "$CI_DEFAULT_BRANCH" ]; then
        docker tag "$DOCKER_IMAGE_NAME" "$CI_REGISTRY_IMAGE:latest"
        docker push "$CI_REGISTRY_IMAGE:latest"
      fi
  rules:
    - if: $CI_COMMIT_BRANCH
      exists:
        - Dockerfile
`,
  LaTeX: `# Builds every .tex document at the top of the repository into a PDF kept as an artifact.
image: aergus/latex

build:
  script:
    - latexmk -pdf *.tex
  artifacts:
    paths:
      - "*.pdf"
`,
  'Pages/HTML': `# A static site: the repository's files are the site, published by GitLab Pages from the default branch.
image: busybox

pages:
  stage: deploy
  script:
    - mkdir .public
    - cp -r ./* .public
    - rm -rf public
    - mv .public public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Hugo': `# A Hugo site: checked on every branch, published by GitLab Pages from the default branch.
image: "hugomods/hugo:exts"

variables:
  GIT_SUBMODULE_STRATEGY: recursive

test:
  script:
    - hugo
  rules:
    - if: $CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH

pages:
  script:
    - hugo
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  'Pages/Jekyll': `# A Jekyll site: built into test/ on other branches, into public/ for GitLab Pages on the default branch.
image: ruby:latest

variables:
  JEKYLL_ENV: production
  LC_ALL: C.UTF-8

before_script:
  - gem install bundler
  - bundle install

test:
  stage: test
  script:
    - bundle exec jekyll build -d test
  artifacts:
    paths:
      - test
  rules:
    - if: $CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH

pages:
  stage: deploy
  script:
    - bundle exec jekyll build -d public
  artifacts:
    paths:
      - public
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  Terraform: `# Terraform: format and validate, plan into an artifact, apply that plan by hand; destroy is there when needed.
image:
  name: hashicorp/terraform:light
  entrypoint: [""]

variables:
  # The directory of the root module (GitLab's template's default: the project's own).
  TF_ROOT: \${CI_PROJECT_DIR}
  TF_IN_AUTOMATION: "true"

stages:
  - validate
  - build
  - deploy
  - cleanup

before_script:
  - cd "$TF_ROOT"
  - terraform init -input=false

fmt:
  stage: validate
  script:
    - terraform fmt -check -recursive
  allow_failure: true

validate:
  stage: validate
  script:
    - terraform validate

build:
  stage: build
  script:
    - terraform plan -input=false -out=plan.cache
  artifacts:
    paths:
      - plan.cache

deploy:
  stage: deploy
  script:
    - terraform apply -input=false plan.cache
  environment:
    name: production
  when: manual

destroy:
  stage: cleanup
  script:
    - terraform destroy -input=false -auto-approve
  environment:
    name: production
    action: stop
  when: manual
`,
}
