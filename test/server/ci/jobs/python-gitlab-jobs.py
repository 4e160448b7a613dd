# python-gitlab 3.12 driving collab's Jobs API and CI/CD variables; prints what it saw as JSON for the test to compare.
import json
import sys

import gitlab

url, token = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=token)
project = gl.projects.get("owner/builds")
out = {}

jobs = project.jobs.list(all=True)
out["list"] = [[j.name, j.status] for j in jobs]
out["scoped"] = [j.name for j in project.jobs.list(scope=["failed", "manual"], all=True)]
pipeline = project.pipelines.get(jobs[0].pipeline["id"])
out["pipeline_jobs"] = [j.name for j in pipeline.jobs.list(all=True)]

build = project.jobs.get([j.id for j in jobs if j.name == "build"][0])
out["trace"] = build.trace().decode()
out["artifact"] = build.artifact("dist/app.txt").decode()
out["zip_magic"] = build.artifacts()[:2].decode()
out["by_ref"] = project.artifacts.raw("main", "dist/app.txt", "build").decode()
out["by_ref_zip"] = project.artifacts.download("main", "build")[:2].decode()
build.keep_artifacts()
out["kept"] = project.jobs.get(build.id).artifacts_expire_at

failed = project.jobs.get([j.id for j in jobs if j.status == "failed"][0])
retried = failed.retry()
out["retry"] = [retried["name"], retried["status"]]
try:
    failed.retry()
except gitlab.exceptions.GitlabJobRetryError as e:
    out["retry_again"] = [e.response_code, e.error_message]

manual = project.jobs.get([j.id for j in jobs if j.status == "manual"][0])
manual.play()
out["played"] = project.jobs.get(manual.id).status
manual.cancel()
out["canceled"] = project.jobs.get(manual.id).status
# A finished manual job played again is retried: a new try, queued.
manual.play()
out["replayed"] = [j.status for j in project.jobs.list(all=True) if j.name == "deploy"]
try:
    build.play()
except gitlab.exceptions.GitlabJobPlayError as e:
    out["play_build"] = [e.response_code, e.error_message]

build.erase()
erased = project.jobs.get(build.id)
out["erased"] = [erased.attributes["artifacts"], erased.erased_at is not None]
try:
    build.artifact("dist/app.txt")
except gitlab.exceptions.GitlabGetError as e:
    out["after_erase"] = e.response_code

v = project.variables.create({"key": "DEPLOY_KEY", "value": "abcdefgh12345678", "masked": True})
out["variable"] = [v.key, v.value, v.masked, v.protected]
v.value = "other-value-123"
v.save()
out["updated"] = project.variables.get("DEPLOY_KEY").value
out["variables"] = [x.key for x in project.variables.list(all=True)]
try:
    project.variables.create({"key": "DEPLOY_KEY", "value": "x"})
except gitlab.exceptions.GitlabCreateError as e:
    out["duplicate"] = [e.response_code, e.error_message]
project.variables.delete("DEPLOY_KEY")
out["after_delete"] = [x.key for x in project.variables.list(all=True)]

print(json.dumps(out))
