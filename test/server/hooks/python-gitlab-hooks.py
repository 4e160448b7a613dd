# python-gitlab 3.12 managing project hooks and system hooks as its users script them; prints what it saw as JSON.
import json
import sys

import gitlab

url, token, receiver = sys.argv[1], sys.argv[2], sys.argv[3]
gl = gitlab.Gitlab(url, private_token=token)
out = {}

project = gl.projects.create({'name': 'py-hooks'})
hook = project.hooks.create({'url': receiver + '/py', 'issues_events': True, 'push_events': False, 'token': 'py-secret'})
out['created'] = [hook.url, hook.issues_events, hook.push_events, hook.alert_status, hasattr(hook, 'token')]
hook.note_events = True
hook.save()
again = project.hooks.get(hook.id)
out['saved'] = [again.note_events, again.issues_events]
out['list'] = [h.id == hook.id for h in project.hooks.list()]
project.issues.create({'title': 'From python'})
try:
    project.hooks.create({'url': 'ftp://example.com'})
except gitlab.exceptions.GitlabCreateError as e:
    out['bad'] = [e.response_code, e.error_message]
project.hooks.delete(hook.id)
out['after'] = len(project.hooks.list())

sys_hook = gl.hooks.create({'url': receiver + '/sys', 'push_events': True})
out['system'] = [sys_hook.push_events, sys_hook.repository_update_events, [h.url for h in gl.hooks.list()]]
gl.hooks.delete(sys_hook.id)
out['system_after'] = len(gl.hooks.list())
print(json.dumps(out))
