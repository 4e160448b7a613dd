// A small set of .gitlab-ci.yml templates, written for collab (no maintained package ships GitLab's own).
export const GITLAB_CI_YMLS: Readonly<Record<string, string>> = {
  Bash: `# A shell-only pipeline: lint the scripts, then run the tests.
stages:
  - test

shellcheck:
  stage: test
  script:
    - shellcheck $(git ls-files '*.sh')

test:
  stage: test
  script:
    - ./test.sh
`,
  Go: `image: golang:latest

stages:
  - test
  - build

format:
  stage: test
  script:
    - go fmt $(go list ./...)
    - go vet $(go list ./...)
    - go test -race $(go list ./...)

compile:
  stage: build
  script:
    - mkdir -p bin
    - go build -o bin ./...
  artifacts:
    paths:
      - bin
`,
  Nodejs: `image: node:20

cache:
  paths:
    - node_modules/

stages:
  - test

test:
  stage: test
  script:
    - npm ci
    - npm test
`,
  Python: `image: python:latest

variables:
  PIP_CACHE_DIR: "$CI_PROJECT_DIR/.cache/pip"

cache:
  paths:
    - .cache/pip

test:
  script:
    - python -m venv venv
    - . venv/bin/activate
    - pip install -r requirements.txt
    - python -m pytest
`,
  Ruby: `image: ruby:latest

cache:
  paths:
    - vendor/ruby

before_script:
  - bundle config set --local path vendor/ruby
  - bundle install -j $(nproc)

rspec:
  script:
    - bundle exec rspec
`,
  Rust: `image: rust:latest

test:
  script:
    - cargo build --verbose
    - cargo test --verbose
`,
}
