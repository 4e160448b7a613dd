# python-gitlab 3.12 administering users and groups on collab: argv is the base URL and a root token; prints one JSON line.
import json
import os
import sys
import tempfile

import gitlab

url, token = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
out = {}

avatar = os.path.join(tempfile.mkdtemp(), "face.png")
with open(avatar, "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n\x00\x01")
with open(avatar, "rb") as image:
    user = gl.users.create({"username": "py", "email": "py@example.com", "name": "Py", "password": "py-password-1", "avatar": image})
# python-gitlab names every image it uploads <attribute>.png.
out["created"] = [user.username, user.avatar_url == "%s/uploads/-/system/user/avatar/%d/avatar.png" % (url, user.id)]
user.bio = "snake"
user.save()
out["saved"] = gl.users.get(user.id).bio
out["states"] = [user.block(), gl.users.get(user.id).state, user.unblock(), user.ban(), user.unban(),
                 user.deactivate(), gl.users.get(user.id).state, user.activate()]

key = user.keys.create({"title": "k", "key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKvLcGz0+0PWzqR443qQ7U7GmgBtmDW+9TLE97KQHuab py"})
out["keys"] = [k.title for k in user.keys.list()]
key.delete()
email = user.emails.create({"email": "py@elsewhere.example"})
out["emails"] = [e.email for e in user.emails.list()]
email.delete()
out["gpg"] = len(user.gpgkeys.list())

status = gl.user.status.get()
status.message = "busy coding"
status.save()
out["status"] = gl.user.status.get().message

settings = gl.notificationsettings.get()
settings.level = "watch"
settings.save()
out["notifications"] = gl.notificationsettings.get().level

top = gl.groups.create({"name": "Py Top", "path": "py-top"})
sub = gl.groups.create({"name": "Py Sub", "path": "py-sub", "parent_id": top.id})
other = gl.groups.create({"name": "Py Other", "path": "py-other"})
out["subgroups"] = [g.full_path for g in top.subgroups.list()]
group_settings = top.notificationsettings.get()
group_settings.level = "disabled"
group_settings.save()
out["group_notifications"] = top.notificationsettings.get().level
sub_group = gl.groups.get(sub.id)
sub_group.transfer(other.id)
out["transferred"] = gl.groups.get(sub.id).full_path

project = gl.projects.create({"name": "py-badged", "namespace_id": top.id})
badge = project.badges.create({"link_url": "https://ci.example/%{project_path}", "image_url": "https://ci.example/b.svg"})
out["badge"] = [badge.kind, badge.rendered_link_url]
rendered = project.badges.render("https://x.example/%{project_id}", "https://x.example/i.svg")
out["render"] = rendered["rendered_link_url"] == "https://x.example/%d" % project.id
top.badges.create({"link_url": "https://g.example", "image_url": "https://g.example/i.svg"})
out["badges"] = sorted(b.kind for b in project.badges.list())

top.delete()
out["group_deleted"] = [g.full_path for g in gl.groups.list(search="py-")]
user.delete()
out["user_deleted"] = [u.username for u in gl.users.list(username="py")]
print(json.dumps(out))
