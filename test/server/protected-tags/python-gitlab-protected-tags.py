# python-gitlab 3.12 driving collab's protected_tags API (project.protectedtags); prints what it saw as JSON.
import json
import sys

import gitlab

url, token = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=token)
project = gl.projects.get("root/pg-tags")
out = {}

created = project.protectedtags.create({"name": "v*", "create_access_level": 30})
out["created"] = [created.name, created.create_access_levels[0]["access_level"]]
project.protectedtags.create({"name": "release-*"})
out["list"] = [t.name for t in project.protectedtags.list(all=True)]
got = project.protectedtags.get("release-*")
out["get"] = [got.name, got.create_access_levels[0]["access_level_description"]]
try:
    project.protectedtags.create({"name": "v*"})
except gitlab.exceptions.GitlabCreateError as e:
    out["duplicate"] = [e.response_code, e.error_message]
got.delete()
out["after_delete"] = [t.name for t in project.protectedtags.list(all=True)]
try:
    project.protectedtags.get("release-*")
except gitlab.exceptions.GitlabGetError as e:
    out["missing"] = e.response_code

print(json.dumps(out))
