// A small set of Dockerfile templates, written for collab (no maintained package ships GitLab's own).
export const DOCKERFILES: Readonly<Record<string, string>> = {
  Binary: `# A prebuilt binary on a small base image.
FROM alpine:latest

WORKDIR /app
COPY ./app /app/app

CMD ["/app/app"]
`,
  Golang: `FROM golang:1.22-alpine AS build

WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -o /out/app .

FROM alpine:latest
COPY --from=build /out/app /usr/local/bin/app
CMD ["app"]
`,
  Node: `FROM node:20-alpine

WORKDIR /usr/src/app
COPY package*.json ./
RUN npm ci --omit=dev
COPY . .

CMD ["node", "index.js"]
`,
  Python: `FROM python:3.12-slim

WORKDIR /usr/src/app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY . .

CMD ["python", "./main.py"]
`,
  Ruby: `FROM ruby:3.3-alpine

WORKDIR /usr/src/app
COPY Gemfile Gemfile.lock ./
RUN bundle install
COPY . .

CMD ["ruby", "./app.rb"]
`,
}
