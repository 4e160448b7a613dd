// .gitlab-ci.yml templates for languages and their build tools, under GitLab's template names and with GitLab's images;
// written for collab (no maintained package ships GitLab's own).
export const LANGUAGE_CI_YMLS: Readonly<Record<string, string>> = {
  Bash: `# A pipeline for shell scripts: check their syntax, run the tests, deploy by hand.
image: busybox:latest

stages:
  - build
  - test
  - deploy

before_script:
  - echo "Running $CI_JOB_NAME on $CI_COMMIT_REF_NAME"

syntax:
  stage: build
  script:
    - for f in $(find . -name '*.sh' -not -path './.git/*'); do sh -n "$f"; done

test:
  stage: test
  script:
    - if [ -f ./test.sh ]; then sh ./test.sh; else echo "No test.sh to run"; fi

deploy:
  stage: deploy
  script:
    - echo "Deploy from here"
  environment: production
  when: manual
`,
  'C++': `# Build with make, then run the tests against the built binaries.
image: gcc

stages:
  - build
  - test

build:
  stage: build
  script:
    - make
  artifacts:
    paths:
      - build/

test:
  stage: test
  script:
    - make test
`,
  Clojure: `# Leiningen: fetch the dependencies once, then run the tests.
image: clojure:lein-2.9.1

cache:
  paths:
    - .m2/repository

variables:
  LEIN_HOME: "$CI_PROJECT_DIR/.lein"

before_script:
  - lein deps

test:
  script:
    - lein test
`,
  Crystal: `# Crystal with shards: the spec suite, then a release build.
image: "crystallang/crystal:latest"

cache:
  paths:
    - lib/

before_script:
  - shards install

spec:
  script:
    - crystal spec

build:
  script:
    - shards build --release
`,
  Dart: `# Dart: static analysis, then the tests.
image: dart:stable

cache:
  paths:
    - .pub-cache/

variables:
  PUB_CACHE: "$CI_PROJECT_DIR/.pub-cache"

before_script:
  - dart pub get

analyze:
  script:
    - dart analyze --fatal-infos

test:
  script:
    - dart test
`,
  Django: `# Django with a MySQL service: migrations checked, then the test suite.
image: python:latest

services:
  - mysql:latest

variables:
  MYSQL_DATABASE: django
  MYSQL_ROOT_PASSWORD: mysql_strong_password
  PIP_CACHE_DIR: "$CI_PROJECT_DIR/.cache/pip"

cache:
  paths:
    - .cache/pip

before_script:
  - python --version
  - pip install -r requirements.txt

migrations:
  stage: build
  script:
    - python manage.py makemigrations --check --dry-run
    - python manage.py migrate

django-tests:
  stage: test
  script:
    - python manage.py test
`,
  Elixir: `# Mix with PostgreSQL: compile without warnings, then the tests.
image: elixir:latest

services:
  - postgres:latest

variables:
  POSTGRES_DB: test_test
  POSTGRES_HOST: postgres
  POSTGRES_USER: postgres
  POSTGRES_PASSWORD: "postgres"
  MIX_ENV: "test"

before_script:
  - mix local.hex --force
  - mix local.rebar --force
  - mix deps.get

test:
  script:
    - mix compile --warnings-as-errors
    - mix test
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
  Gradle: `# Gradle through the project's wrapper: build, then check.
image: gradle:alpine

variables:
  GRADLE_OPTS: "-Dorg.gradle.daemon=false"

before_script:
  - export GRADLE_USER_HOME="$CI_PROJECT_DIR/.gradle"

build:
  stage: build
  script:
    - gradle --build-cache assemble
  cache:
    key: "$CI_COMMIT_REF_NAME"
    policy: push
    paths:
      - build
      - .gradle

test:
  stage: test
  script:
    - gradle check
  cache:
    key: "$CI_COMMIT_REF_NAME"
    policy: pull
    paths:
      - build
      - .gradle
`,
  Julia: `# Julia: instantiate the project's environment and run its tests.
image: julia:latest

test:
  script:
    - julia --project=@. -e 'using Pkg; Pkg.instantiate(); Pkg.build(); Pkg.test(coverage=true)'
`,
  Maven: `# Maven in batch mode, the local repository kept in the project directory so the cache can hold it.
image: maven:3.8.5-openjdk-17

variables:
  MAVEN_OPTS: "-Dhttps.protocols=TLSv1.2 -Dmaven.repo.local=$CI_PROJECT_DIR/.m2/repository"
  MAVEN_CLI_OPTS: "--batch-mode --errors --fail-at-end --show-version"

cache:
  paths:
    - .m2/repository

verify:
  stage: test
  script:
    - mvn $MAVEN_CLI_OPTS verify
  rules:
    - if: $CI_COMMIT_BRANCH != $CI_DEFAULT_BRANCH

deploy:
  stage: deploy
  script:
    - mvn $MAVEN_CLI_OPTS deploy
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
`,
  Nodejs: `image: node:latest

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
  PHP: `# PHP with Composer: install the dependencies, then PHPUnit.
image: php:latest

cache:
  paths:
    - vendor/

before_script:
  - curl -sS https://getcomposer.org/installer | php
  - php composer.phar install

test:
  script:
    - vendor/bin/phpunit --configuration phpunit.xml --coverage-text --colors=never
`,
  Python: `image: python:latest

variables:
  PIP_CACHE_DIR: "$CI_PROJECT_DIR/.cache/pip"

cache:
  paths:
    - .cache/pip

before_script:
  - python3 --version
  - python3 -m venv venv
  - . venv/bin/activate
  - pip install -r requirements.txt

test:
  script:
    - python -m unittest discover -v

run:
  script:
    - python -m compileall -q -x venv .
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
  Scala: `# sbt: compile and test, the Ivy and sbt caches kept between pipelines.
image: eclipse-temurin:17

variables:
  SBT_OPTS: "-Dsbt.global.base=sbt-cache/sbtboot -Dsbt.boot.directory=sbt-cache/boot -Dsbt.ivy.home=sbt-cache/ivy"

cache:
  paths:
    - sbt-cache/

test:
  script:
    - sbt clean coverage test coverageReport
`,
  Swift: `# Swift Package Manager: build, then the tests.
image: swift:latest

stages:
  - build
  - test

build:
  stage: build
  script:
    - swift build

test:
  stage: test
  script:
    - swift test
`,
  'dotNET-Core': `# .NET: restore, build and test the solution.
image: mcr.microsoft.com/dotnet/sdk:latest

variables:
  NUGET_PACKAGES: "$CI_PROJECT_DIR/.nuget"

cache:
  paths:
    - .nuget/

stages:
  - build
  - test

build:
  stage: build
  script:
    - dotnet restore
    - dotnet build --no-restore

test:
  stage: test
  script:
    - dotnet test --no-restore
`,
}
